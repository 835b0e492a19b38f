"""One module or package per chapter notebook, a package holding one module per paper item: its experiment, table,
figure, the numbers its page glues and the values its claims read (``out.value``), unit-tested. The page's sentences
are the notebook's markdown; each caption sits beside its figure in the notebook.

Chapters may use the methods and the data layer; neither imports a chapter, no chapter imports another, and a
package's ``__init__`` declares only ``CHAPTER`` and ``PARAMETERS`` (tests/test_architecture.py checks all three).

* :mod:`.why_pairing` (``00_why_pairing_matters``): paired, Fig. 1, Table 2 / App. A.1, Fig. 2, Prop. 1, App. F
* :mod:`.simulation` (``01_synthetic_simulation``): paired, §4, Fig. 3 (a-h), App. A.2
* :mod:`.real_setups` (``02_real_setups``): paired, §5 and App. A.3 (``setups``), Tables 1, 4 and App. H
  (``table1``), Table 3, Figs. 4, 5, 6 / App. D, App. F (``appf``)
* :mod:`.wmt_stability` (``03_wmt_stability``): Knowles 2021, the packages (``packages``), §3 / App. A
  (``replication``, ``paper2020``), Tables 1-3 and Fig. 1 (``published``), Figs. 2-3 (``fig23``), Fig. 4, Fig. 5, §5's
  experiments and remedies (``experiments``), null controls (``controls``), §7 (``section7``)
* :mod:`.favoritism` (``04_favoritism``): the Favi-Score, Defs. 4-11 and Lemmas (``definitions``), Table 1, Fig. 4,
  Fig. 5, Figs. 1, 6, 8-13 (``cases``, drawn by ``wingraphs``), App. C.2.1, App. D, beyond the paper
  (``uncertainty``); the settings they share (``experiments``)
* :mod:`.global_vs_pairwise` (``05_global_vs_pairwise``): Levtsov & Ustalov 2025, CEval (``ceval``), SST-5 and the
  binary stand-in for Jigsaw (``classification``), Figs. 1-3 and §5's random models (``stability``), llmfao
  (``llmfao``), the protocol's readings (``protocol``), the paper against its appendices (``self_check``)
* :mod:`.synthesis` (``06_synthesis``): beyond the papers, one module per study (``stability``, ``wmt_pairs``,
  ``favoritism``, ``ties``)
* :mod:`.your_own_scores` (``09_your_own_scores``): a user's score file through every method
* :mod:`.common` (all): outputs from the notebook's parameters, parameter rules, timings, verdicts for the page
"""
