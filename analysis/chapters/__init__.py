"""One module or package per chapter notebook: the orchestration, tables, figures and the numbers each paper item's
page pastes, unit-tested (the page's sentences are the notebook's markdown, its captions beside each figure).

A notebook reads like the paper section it rebuilds and makes one or a few calls per paper item; the loops, plot
helpers and side-by-side table builders live here, a large chapter split by job (experiments, published values,
figures, views). Chapters may use the methods and the data layer; neither of those imports a chapter, and no chapter
imports another (tests/test_architecture.py checks both). Each chapter declares ``CHAPTER`` (its notebook's name)
and ``PARAMETERS`` (the rule of every notebook parameter and its quick-profile value); a package's ``__init__``
declares only those, and the notebook imports each module by name (no re-export layer, also checked).

Chapters, their notebooks and the paper items they rebuild:

* :mod:`.why_pairing` (``00_why_pairing_matters``; experiments, figures, text: tables as shown): paired, Fig. 1, Table 2 / App. A.1, Fig. 2, Prop. 1, App. F
* :mod:`.simulation` (``01_synthetic_simulation``): paired, Fig. 3 (a-h), §4, App. A.2
* :mod:`.real_setups` (``02_real_setups``; setups, experiments, published, figures, page_values): paired, Tables 1, 3, 4,
  Figs. 4-6, App. C, D, F, H
* :mod:`.wmt_stability` (``03_wmt_stability``; packages, replication, experiments, claim_values, published, figures, text,
  views): Knowles 2021, §3 / App. A, §5, Tables 1-3, Figs. 1-5
* :mod:`.favoritism` (``04_favoritism``; experiments, published, figures, checks, tables): Favi-Score, Figs. 1-6 and 8-13,
  Table 1, Lemmas 1-2, App. C-D
* :mod:`.global_vs_pairwise` (``05_global_vs_pairwise``; ceval, stability, classification, llmfao, published,
  claim_values, facts, shared, figures, views): Levtsov & Ustalov 2025 — CEval (App. C, Tables 6-7, Fig. 1), Figs. 2-4 and §5's random
  binary models; SST-5 (App. B, Tables 3 and 5) and the binary stand-in for Jigsaw (App. A, Tables 2 and 4);
  llmfao beyond the paper
* :mod:`.synthesis` (``06_synthesis``; stability, wmt_pairs, favoritism, ties, values, figures): beyond the
  papers, the four papers' questions asked of each other's data
* :mod:`.your_own_scores` (``09_your_own_scores``): a user's score file through every method
* :mod:`.common` (all): outputs from the notebook's parameters, parameter rules, timings, labels
"""
