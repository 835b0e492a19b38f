"""Helper package of the compendium: pure, tested functions behind the notebooks.

Modules: :mod:`~analysis.aggregate` (MEAN, MEDIAN, BT, Elo, TrueSkill), :mod:`~analysis.pairwise` (win/tie counts,
paired tests, bootstrap), :mod:`~analysis.agreement` (disagreement between mechanisms), :mod:`~analysis.plotting`
(theme, saving figures and tables with provenance), :mod:`~analysis.reproduce` (the papermill batch runner, with
:mod:`~analysis.manifest`, :mod:`~analysis.journal` and :mod:`~analysis.output_checks`).
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("analysis")
except PackageNotFoundError:  # running from a source tree that was not installed
    __version__ = "0.0.0+unknown"
