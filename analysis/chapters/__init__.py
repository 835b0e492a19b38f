"""One module per chapter notebook: the orchestration, tables and figures each paper item needs, unit-tested.

A notebook reads like the paper section it rebuilds and makes one or a few calls per paper item; the loops, plot
helpers and side-by-side table builders live here. Chapters may use the methods and the data layer; neither of
those imports a chapter (a test checks it).

=======================  ==========================  ==========================================================
module                   notebook                    paper items
=======================  ==========================  ==========================================================
:mod:`.why_pairing`      ``00_why_pairing_matters``  paired: Fig. 1, Table 2 / App. A.1, Fig. 2, Prop. 1, App. F
:mod:`.simulation`       ``01_synthetic_simulation`` paired: Fig. 3 (a-h), §4, App. A.2
:mod:`.real_setups`      ``02_real_setups``          paired: Tables 1, 3, 4, Figs. 4-6, App. C, D, F, H
:mod:`.common`           all                         outputs from the notebook's parameters, timings, labels
=======================  ==========================  ==========================================================
"""
