"""Chapter 09 (analysis.chapters.your_own_scores): the chapter's tables equal the `compare` command's."""

import json
from pathlib import Path

import pandas as pd

from analysis import compare
from analysis.__main__ import main
from analysis.chapters import your_own_scores
from analysis.compare import figures, report
from analysis.profiles import parameters_for

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / your_own_scores.EXAMPLE


def test_cli_on_the_example_equals_the_chapter_and_round_trips_json(tmp_path, capsys):
    """The CLI's tables equal the notebook's (same seed and resamples as the quick profile)."""
    params = parameters_for("quick", your_own_scores.CHAPTER)
    out_json = tmp_path / "report.json"
    args = ["compare", str(EXAMPLE), "--json", str(out_json), "--out", str(tmp_path / "figs"),
            "--n-resamples", str(params["n_resamples"]),
            "--n-resamples-sequential", str(params["n_resamples_sequential"])]
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "Systems, best first by BT" in printed and "Stability" in printed
    assert max(map(len, printed.splitlines())) <= 100
    loaded = compare.from_dict(json.loads(out_json.read_text()))
    direct = compare.compare(your_own_scores.load(your_own_scores.EXAMPLE), rng=2021, **params)
    assert loaded.human.empty and direct.human.empty  # no human ratings given
    for name in [f for f in compare.FRAMES if f != "human"]:
        pd.testing.assert_frame_equal(getattr(loaded, name), getattr(direct, name), check_dtype=False, obj=name)
    assert {p.name for p in (tmp_path / "figs").iterdir()} >= {"systems.csv", "mechanisms.png", "pairwise.svg"}


# --- tables, figures and captions for the page (issue 26) ------------------------------------------------------------

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from analysis.plotting import set_theme  # noqa: E402
from tests.helpers import legible  # noqa: E402


@pytest.fixture(scope="module")
def many():
    """20 systems with names up to 36 characters, the size of a large shared task."""
    rng = np.random.default_rng(0)
    names = [f"system-{k:02d}-" + "a-rather-long-model-name"[: k + 4] for k in range(20)]
    scores = pd.DataFrame(rng.normal(0, 1, (60, 20)) + np.linspace(0, 1, 20), columns=names)
    return compare.compare(scores, rng=1, n_resamples=20, n_resamples_sequential=5)


@pytest.fixture(scope="module")
def few():
    return compare.compare(your_own_scores.load(your_own_scores.EXAMPLE), rng=2021, n_resamples=20,
                           n_resamples_sequential=5)


def test_figures_fit_the_book_column_from_two_to_twenty_systems(few, many):
    set_theme()
    two = compare.compare(pd.DataFrame({"A": [0.1, 0.5, 0.3], "B": [0.2, 0.4, 0.1]}), rng=0, n_resamples=10,
                          n_resamples_sequential=5)
    for result in (two, few, many):
        assert legible(figures.plot_mechanisms(result)) <= 1425
        assert legible(figures.plot_prob(result)) <= 1425
    assert legible(figures.plot_mechanisms(few)) <= 900  # a few systems: near the column's width


def test_many_systems_get_short_turned_labels_and_marks_only(many):
    import matplotlib.pyplot as plt

    fig = figures.plot_prob(many)
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert max(map(len, labels)) <= figures.LABEL_CHARS and any(s.endswith("…") for s in labels)
    assert ax.get_xticklabels()[0].get_rotation() == 60
    cells = [t.get_text() for t in ax.texts]
    assert cells and not any(c[:1].isdigit() for c in cells)  # no shares printed at 20 systems, only the marks
    plt.close(fig)


def test_short_name_and_decimals():
    assert figures.short_name("abc") == "abc"
    assert figures.short_name("x" * 30, 10) == "x" * 9 + "…"
    assert [report.decimals(v) for v in ([1517.9], [26.7, 24.4], [0.27], [0.0])] == [0, 1, 3, 3]


def test_ranking_views_split_the_table_to_fit_the_page_and_keep_every_column(few):
    table = your_own_scores.ranking_table(few)
    views = your_own_scores.ranking_views(few)
    assert list(views[0].columns[:3]) == ["BT", "rank (95%)", "tied group"]
    assert all(view.shape[1] <= your_own_scores.PAGE_COLUMNS for view in views)
    assert sorted(c for view in views for c in view.columns) == sorted(table.columns)
    assert all(view.index.equals(table.index) for view in views)


def test_ranking_table_rounds_each_mechanism_to_its_scale(few):
    table = your_own_scores.ranking_table(few)
    assert table["Elo"].str.fullmatch(r"\d+ \[\d+, \d+\]").all()
    assert table["rank (95%)"].str.fullmatch(r"\d+–\d+").all()
    assert table["TrueSkill"].str.fullmatch(r"\d+\.\d \[\d+\.\d, \d+\.\d\]").all()
    assert table["MEAN"].str.fullmatch(r"0\.\d{3} \[0\.\d{3}, 0\.\d{3}\]").all()


def test_the_page_numbers_and_views_are_computed(few):
    numbers = your_own_scores.page_numbers(few)
    sign = int(np.triu(few.sign_p_adj.to_numpy() < 0.05, 1).sum())
    assert numbers["systems"] == 5 and numbers["instances"] == 60 and numbers["pairs"] == 10
    assert numbers["resamples"] == 20 and numbers["resamples_sequential"] == 5 and numbers["sign_different"] == sign
    assert numbers["mechanism_pairs"] == 10 and 0 <= numbers["best_differs"] <= 10
    assert numbers["groups"] == few.systems["group"].max()
    view = your_own_scores.disagreement_view(few)
    assert set(view["different best system"]) <= {"yes", "no"} and len(view) == 10
    best = your_own_scores.best_by_mechanism(few)
    assert best.startswith("MEAN: ") and best.count(":") == 5


@pytest.mark.parametrize("adjust", ["holm", "bh", "none"])
def test_judgment_numbers_follow_the_adjustment_the_comparison_used(adjust):
    from analysis.compare.judgments import compare_judgments

    rng = np.random.default_rng(0)
    a = rng.integers(0, 4, 200)
    b = (a + rng.integers(1, 4, 200)) % 4
    names = np.array(["m0", "m1", "m2", "m3"])
    games = pd.DataFrame({"left": names[a], "right": names[b], "winner": np.where(a > b, "left", "right"),
                          "weight": 1.0})
    result = compare_judgments(games, rng=0, n_resamples=20, n_resamples_sequential=0, n_orders=1, adjust=adjust)
    numbers = your_own_scores.page_numbers(result)
    assert result.settings["adjust"] in your_own_scores.ADJUSTMENTS and "wilcoxon_different" not in numbers
    assert numbers["sign_different"] == int(np.triu(result.sign_p_adj.to_numpy() < 0.05, 1).sum())


def test_widest_rank_intervals_name_every_system_sharing_the_widest():
    from types import SimpleNamespace

    systems = pd.DataFrame({"rank_low": [1, 2, 3], "rank_high": [2, 8, 9], "group": [1, 2, 2]}, index=["A", "B", "C"])
    result = SimpleNamespace(systems=systems)
    assert your_own_scores.widest_rank_intervals(result) == "B (2–8), C (3–9)"
    systems.loc["C", "rank_high"] = 7
    assert your_own_scores.widest_rank_intervals(result) == "B (2–8)"


def test_places_moved_counts_where_mean_and_the_adjusted_mean_differ():
    from types import SimpleNamespace

    systems = pd.DataFrame({"mean_rank": [1, 2, 3], "mean_adj_rank": [2, 1, 3]}, index=["A", "B", "C"])
    assert your_own_scores.places_moved(SimpleNamespace(systems=systems)) == 2
    assert your_own_scores.places_moved(SimpleNamespace(systems=systems.assign(mean_adj_rank=[1, 2, 3]))) == 0


def test_llm_judge_files_orient_both_orders_and_the_experts():
    """ChatGPT's head-to-head rows become judgment files: model_a is the summary shown first (system_1 in the original
    order, system_2 when toggled), the winner is the system ChatGPT named, ``first`` is 1; the experts' file compares
    the mean ratings (equal means a tie); both name the item by document and order."""
    from analysis.chapters.your_own_scores import llm_judge_files

    h2h = pd.DataFrame({"aspect": ["relevance"] * 4 + ["fluency"], "system_1": ["M1", "M1", "M1", "M1", "M1"],
                        "system_2": ["M2"] * 5, "document": ["d1", "d1", "d2", "d2", "d1"],
                        "order": ["original", "toggled", "original", "toggled", "original"],
                        "response": ["A", "A", "C", "B", "A"], "preferred": ["M1", "M2", "tie", "M1", "M1"],
                        "expert_1": [4.0, 4.0, 3.0, 3.0, 1.0], "expert_2": [3.0, 3.0, 3.0, 3.0, 5.0]})
    judge, experts = llm_judge_files(h2h, "relevance")
    assert judge[["model_a", "model_b", "winner"]].values.tolist() == [
        ["M1", "M2", "model_a"], ["M2", "M1", "model_a"], ["M1", "M2", "tie"], ["M2", "M1", "model_b"]]
    assert (judge["first"] == 1).all()
    assert experts["winner"].tolist() == ["model_a", "model_a", "tie", "tie"]
    assert judge["question_id"].tolist() == experts["question_id"].tolist() == ["d1/original", "d1/toggled",
                                                                                "d2/original", "d2/toggled"]
    with pytest.raises(ValueError, match="no head-to-head verdicts for aspect 'coverage'"):
        llm_judge_files(h2h, "coverage")
