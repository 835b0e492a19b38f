"""Hostile inputs to ``python -m analysis compare`` (issues 42 and 44): every case is a correct result or a one-line
error naming the file, line, column or option. Readers are called directly where the case is about reading (fast);
the command where it is about options, outputs or the report."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analysis.__main__ import main
from analysis.compare.report import escape_latex
from analysis.data.judgment_columns import WINNER_WORDS
from analysis.data.scorefile_tables import ScoreFileError
from analysis.data.scorefiles import read_judgments, read_scores

FAST = ["--n-resamples", "20", "--n-resamples-sequential", "2"]
SEPS = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}
#: the reference data every layout writes: 3 systems x 4 instances
MATRIX = pd.DataFrame({"A": [0.5, 0.25, 0.75, 1.0], "B": [0.25, 0.5, 0.5, 0.0], "C": [1.0, 0.0, 0.25, 0.5]},
                      index=[10, 11, 12, 13])
GAMES = [("A", "B", "model_a"), ("B", "C", "tie"), ("A", "C", "model_b"), ("C", "B", "model_a"),
         ("A", "B", "model_b"), ("C", "A", "tie")]


def lines(layout: str, sep: str = ",") -> list[str]:
    """The reference data as the lines of a file in ``layout`` (long, wide, judgments, mtme)."""
    if layout == "long":
        rows = ["instance,system,score"] + [f"{i},{s},{MATRIX.at[i, s]}" for i in MATRIX.index for s in MATRIX]
    elif layout == "wide":
        rows = ["instance,A,B,C"] + [",".join([str(i), *map(str, MATRIX.loc[i])]) for i in MATRIX.index]
    elif layout == "judgments":
        rows = ["model_a,model_b,winner"] + [",".join(g) for g in GAMES]
    else:
        return [f"{s} {MATRIX.at[i, s]}" for s in MATRIX for i in MATRIX.index]
    return [r.replace(",", sep) for r in rows]


def write(tmp_path: Path, layout: str, rows: list[str], *, encoding="utf-8", name=None) -> Path:
    path = tmp_path / (name or ("scores.score" if layout == "mtme" else f"{layout}.csv"))
    path.write_bytes(("\n".join(rows) + "\n").encode(encoding))
    return path


def read(layout: str, path: Path, **kwargs):
    return read_judgments(path, **kwargs) if layout == "judgments" else read_scores(path, **kwargs)


def expected(layout: str, result) -> None:
    """The file read equals the reference data."""
    if layout == "judgments":
        assert list(zip(result["left"], result["right"])) == [g[:2] for g in GAMES]
        assert list(result["winner"]) == [{"model_a": "left", "model_b": "right", "tie": "tie"}[g[2]] for g in GAMES]
    else:
        got = result.set_axis(MATRIX.index if layout == "mtme" else result.index, axis=0)
        pd.testing.assert_frame_equal(got.astype(float), MATRIX.astype(float), check_names=False)


def one_line_error(call, *words):
    with pytest.raises(ScoreFileError) as err:
        call()
    message = str(err.value)
    assert "\n" not in message and all(w in message for w in words), message
    return message


LAYOUTS = ("long", "wide", "judgments")


# --- separators, BOM, encodings ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("sep", SEPS, ids=SEPS.values())
@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_separator_reads_the_same(tmp_path, layout, sep):
    expected(layout, read(layout, write(tmp_path, layout, lines(layout, sep))))


@pytest.mark.parametrize("fmt", ["parquet", "jsonl"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_parquet_and_json_lines_read_the_same(tmp_path, layout, fmt):
    frame = pd.read_csv(write(tmp_path, layout, lines(layout)), dtype={"instance": str})
    path = tmp_path / f"data.{fmt}"
    frame.to_parquet(path) if fmt == "parquet" else frame.to_json(path, orient="records", lines=True)
    expected(layout, read(layout, path))


@pytest.mark.parametrize("layout", [*LAYOUTS, "mtme"])
def test_a_byte_order_mark_is_not_part_of_the_first_name(tmp_path, layout):
    expected(layout, read(layout, write(tmp_path, layout, lines(layout), encoding="utf-8-sig")))


@pytest.mark.parametrize("layout", [*LAYOUTS, "mtme"])
def test_latin1_files_are_refused_naming_the_line(tmp_path, layout):
    rows = lines(layout)
    k = max(i for i, r in enumerate(rows) if "C" in r)
    rows[k] = rows[k].replace("C", "Cé", 1)
    path = write(tmp_path, layout, rows, encoding="latin-1")
    one_line_error(lambda: read(layout, path), str(path), f"line {k + 1}", "not UTF-8")


# --- ragged rows and decimal commas -----------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["long-row", "short-row"])
@pytest.mark.parametrize("sep", SEPS, ids=SEPS.values())
@pytest.mark.parametrize("layout", LAYOUTS)
def test_rows_with_extra_or_missing_fields_are_refused(tmp_path, layout, sep, kind):
    rows = lines(layout, sep)
    rows[2] = rows[2] + sep + "5" if kind == "long-row" else rows[2].rsplit(sep, 1)[0]
    path = write(tmp_path, layout, rows)
    n = len(rows[2].split(sep))
    one_line_error(lambda: read(layout, path), str(path), "line 3", f"has {n} fields")


@pytest.mark.parametrize("layout", ["long", "wide"])
def test_an_unquoted_decimal_comma_is_named(tmp_path, layout):
    rows = lines(layout)
    rows[1] = rows[1][: rows[1].rindex(".")] + "," + rows[1][rows[1].rindex(".") + 1:]
    path = write(tmp_path, layout, rows)
    one_line_error(lambda: read(layout, path), "line 2", "decimal comma")


@pytest.mark.parametrize("layout", LAYOUTS)
def test_trailing_separators_are_not_fields(tmp_path, layout):
    expected(layout, read(layout, write(tmp_path, layout, [r + "," for r in lines(layout)])))


def test_a_quoted_decimal_comma_is_not_a_number_and_says_where(tmp_path):
    path = write(tmp_path, "long", ["instance;system;score", "1;A;0,5", "1;B;0.25"])
    one_line_error(lambda: read_scores(path), "'0,5'", "line 2", "not a number")


def test_mtme_lines_with_three_fields_are_refused(tmp_path):
    path = write(tmp_path, "mtme", ["A 0.5", "A 0.25 extra", "B 0.1", "B 0.2"])
    one_line_error(lambda: read_scores(path), ":2:", "system<whitespace>score")


# --- names ------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["", "  "])
def test_an_empty_system_name_is_refused(tmp_path, name):
    path = write(tmp_path, "long", ["instance,system,score", "1,A,0.5", f"1,{name},0.2", "2,A,0.1"])
    one_line_error(lambda: read_scores(path), "empty system name", "line 3")


@pytest.mark.parametrize("column", ["model_a", "model_b"])
def test_an_empty_model_name_in_a_judgment_is_refused(tmp_path, column):
    rows = ["model_a,model_b,winner", "A,B,model_a", ("" if column == "model_a" else "A") + "," +
            ("" if column == "model_b" else "B") + ",tie"]
    path = write(tmp_path, "judgments", rows)
    one_line_error(lambda: read_judgments(path), "empty system name", "line 3", column)


@pytest.mark.parametrize("fmt", ["parquet", "jsonl"])
@pytest.mark.parametrize("layout", ["long", "judgments"])
def test_a_null_system_name_is_refused_not_called_none(tmp_path, layout, fmt):
    if layout == "long":
        frame = pd.DataFrame({"instance": [1, 1, 2, 2], "system": ["A", None, "A", "B"], "score": [1.0, 2, 3, 4]})
    else:
        frame = pd.DataFrame({"model_a": ["A", None], "model_b": ["B", "A"], "winner": ["tie", "tie"]})
    path = tmp_path / f"d.{fmt}"
    frame.to_parquet(path) if fmt == "parquet" else frame.to_json(path, orient="records", lines=True)
    one_line_error(lambda: read(layout, path), "empty system name")


def test_names_differing_only_in_surrounding_spaces_are_one_system(tmp_path):
    path = write(tmp_path, "long", ["instance,system,score", "1,A,0.5", "1, A ,0.2", "1,B,0.1"])
    one_line_error(lambda: read_scores(path), "duplicate (instance, system) rows: (1, 'A') on line 2 and line 3")


def test_names_differing_in_case_are_different_systems(tmp_path):
    path = write(tmp_path, "long", ["instance,system,score", "1,A,0.5", "1,a,0.2", "2,A,0.1", "2,a,0.3"])
    assert list(read_scores(path).columns) == ["A", "a"]


def test_wide_columns_differing_only_in_spaces_are_refused(tmp_path):
    path = write(tmp_path, "wide", ["instance,A, A,B", "1,0.1,0.2,0.3"])
    with pytest.raises(ScoreFileError):
        read_scores(path)


# --- instance ids -----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("ids", [("1", "01"), ("1", "1.0"), ("1000", "1e3"), ("9007199254740992", "9007199254740993"),
                                 ("18446744073709551616", "18446744073709551617"), ("-1", "1"), ("x", "X")])
@pytest.mark.parametrize("layout", ["long", "wide"])
def test_ids_that_differ_as_text_stay_different(tmp_path, layout, ids):
    if layout == "long":
        rows = ["instance,system,score"] + [f"{i},{s},{v}" for i in ids for s, v in (("A", 0.1), ("B", 0.2))]
    else:
        rows = ["instance,A,B"] + [f"{i},0.1,0.2" for i in ids]
    assert len(read_scores(write(tmp_path, layout, rows))) == 2


@pytest.mark.parametrize("layout", ["long", "wide"])
def test_long_and_wide_files_give_the_same_ids(tmp_path, layout):
    """A wide file's text ids and a long file's ids are one type: a long --human file matches a wide score file."""
    wide = read_scores(write(tmp_path, "wide", lines("wide")))
    long = read_scores(write(tmp_path, "long", lines("long")))
    assert list(wide.index) == list(long.index) == [10, 11, 12, 13]


@pytest.mark.parametrize("column", ["doc_id", "idx", "example_id", "Segment", "ID", "item", "key"])
def test_id_columns_by_name_are_not_systems(tmp_path, column):
    rows = [f"{column},A,B", "7,0.1,0.2", "8,0.3,0.1"]
    matrix = read_scores(write(tmp_path, "wide", rows))
    assert list(matrix.columns) == ["A", "B"] and list(matrix.index) == [7, 8]


@pytest.mark.parametrize("header", ["A,id,B", "A,B,Index", "A,B,doc_id", "A,item,B"])
def test_a_system_named_like_ids_is_not_taken_for_them(tmp_path, header):
    path = write(tmp_path, "wide", [header, "0.1,0.2,0.3", "0.2,0.5,0.4"])
    one_line_error(lambda: read_scores(path), "not the first column")


def test_two_id_columns_are_refused(tmp_path):
    path = write(tmp_path, "wide", ["instance,id,A,B", "1,1,0.1,0.2"])
    one_line_error(lambda: read_scores(path), "several columns are named like instance ids")


def test_duplicate_wide_ids_name_both_lines(tmp_path):
    path = write(tmp_path, "wide", ["instance,A,B", "1,0.1,0.2", "2,0.3,0.1", "1,0.2,0.2"])
    one_line_error(lambda: read_scores(path), "duplicate instance 1", "lines 2 and 4")


def test_a_wide_file_with_a_system_called_score_gets_a_hint(tmp_path):
    path = write(tmp_path, "wide", ["instance,Score,B", "1,0.1,0.2", "2,0.3,0.4"])
    one_line_error(lambda: read_scores(path), "--input-format wide")
    assert list(read_scores(path, "wide").columns) == ["Score", "B"]


# --- score values -----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("cell, words", [("inf", ["infinite"]), ("-inf", ["infinite"]), ("abc", ["not a number"]),
                                         ("0,5", ["not a number"]), ("1e999", ["infinite"])])
@pytest.mark.parametrize("layout", ["long", "wide"])
def test_bad_score_cells_name_line_and_value(tmp_path, layout, cell, words):
    rows = lines(layout, ";")
    fields = rows[2].split(";")
    fields[-1] = cell
    rows[2] = ";".join(fields)
    path = write(tmp_path, layout, rows)
    one_line_error(lambda: read_scores(path), "line 3", *words)


@pytest.mark.parametrize("word", ["", "NA", "nan", "None", "null", "n/a"])
def test_missing_score_words_in_a_wide_file_are_missing(tmp_path, word):
    matrix = read_scores(write(tmp_path, "wide", ["instance,A,B", f"1,0.1,{word}", "2,0.3,0.4", "3,0.2,0.1"]))
    assert np.isnan(matrix.at[1, "B"]) and matrix.notna().sum().sum() == 5


def _cli_json(tmp_path, capsys, path, *args):
    out = tmp_path / "r.json"
    code = main(["compare", str(path), *map(str, args), *FAST, "--json", str(out)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return json.loads(out.read_text()), captured


@pytest.mark.parametrize("case", ["constant", "all-ties", "denormal", "tiny-spread", "huge-but-finite", "negative"])
def test_degenerate_magnitudes_give_a_correct_result(tmp_path, capsys, case):
    rng = np.random.default_rng(1)
    base = rng.normal(size=(12, 3))
    data = {"constant": np.column_stack([base[:, 0], np.full(12, 0.5), base[:, 2]]),
            "all-ties": np.ones((12, 3)), "denormal": base * 1e-310, "tiny-spread": 1 + base * 1e-12,
            "huge-but-finite": base * 1e300, "negative": -np.abs(base) - 1e6}[case]
    path = tmp_path / "w.csv"
    pd.DataFrame(data, columns=list("ABC")).to_csv(path, index=False, float_format="%.17g")
    payload, captured = _cli_json(tmp_path, capsys, path)
    assert payload["settings"]["n_systems"] == 3
    means = pd.Series(payload["systems"]["data"][i][0] for i in range(3))
    np.testing.assert_allclose(means, data.mean(axis=0), rtol=1e-12)
    code = main(["compare", str(path), *FAST])
    text = capsys.readouterr().out
    if case == "denormal":
        assert "e-310" in text or "e-311" in text, text  # never 0.000000 for a nonzero mean
    if case == "all-ties":
        prob = np.array(payload["prob"]["data"], dtype=float)
        assert np.allclose(prob[~np.eye(3, dtype=bool)], 0.5)
    assert code == 0


def test_overflowing_scores_are_refused(tmp_path, capsys):
    path = tmp_path / "w.csv"
    pd.DataFrame({"A": [1e308, 1e308], "B": [0.1, 0.2]}).to_csv(path, index=False)
    assert main(["compare", str(path), *FAST]) == 2
    assert "overflow" in capsys.readouterr().err


# --- degenerate data: said in the text and the JSON -------------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 2, 5])
def test_few_instances_are_warned_about(tmp_path, capsys, n):
    path = tmp_path / "w.csv"
    pd.DataFrame({"A": np.arange(n) + 0.5, "B": np.arange(n) * 0.9, "C": np.arange(n) * 1.1}).to_csv(path, index=False)
    payload, captured = _cli_json(tmp_path, capsys, path)
    assert payload["settings"]["n_instances"] == n
    assert main(["compare", str(path), *FAST]) == 0
    assert f"only {n} instances" in capsys.readouterr().out


def test_a_system_that_never_loses_is_named_in_text_and_json(tmp_path, capsys):
    path = tmp_path / "w.csv"
    pd.DataFrame({"A": [9.0] * 8, "B": [0.1, 0.5, 0.3, 0.2, 0.6, 0.4, 0.7, 0.8],
                  "C": [0.2, 0.4, 0.1, 0.3, 0.5, 0.6, 0.9, 0.0]}).to_csv(path, index=False)
    payload, _ = _cli_json(tmp_path, capsys, path)
    assert payload["settings"]["degenerate"]["never_lose"] == [["A"]]
    assert main(["compare", str(path), *FAST]) == 0
    assert "A never lose against the other systems" in capsys.readouterr().out


def test_a_single_judgment_is_warned_about(tmp_path, capsys):
    path = write(tmp_path, "judgments", ["model_a,model_b,winner", "A,B,model_a"])
    payload, _ = _cli_json(tmp_path, capsys, path)
    assert payload["settings"]["degenerate"]["no_wins"] == ["B"]
    assert main(["compare", str(path), *FAST]) == 0
    out = capsys.readouterr().out
    assert "only 1 judgments" in out and "B win(s) no comparison" in out


@pytest.mark.parametrize("layout", ["judgments", "incomplete"])
def test_a_disconnected_comparison_graph_names_its_groups(tmp_path, capsys, layout):
    if layout == "judgments":
        path = write(tmp_path, "judgments", ["model_a,model_b,winner", "A,B,model_a", "B,A,tie", "C,D,model_b",
                                             "D,C,tie"])
    else:
        path = write(tmp_path, "long", ["instance,system,score", "1,A,1", "1,B,2", "2,A,2", "2,B,1", "3,C,1",
                                        "3,D,2", "4,C,2", "4,D,1"])
    code = main(["compare", str(path), *FAST])
    err = capsys.readouterr().err
    assert code == 2 and "[['A', 'B'], ['C', 'D']]" in err and "dropped tie" not in err, err


# --- judgment winners -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("meaning, word", [(m, w) for m, words in WINNER_WORDS.items() for w in words])
def test_every_winner_word_means_what_it_says(tmp_path, meaning, word):
    path = write(tmp_path, "judgments", ["model_a,model_b,winner", f"sysA,sysB,{word.upper()}", "sysB,sysA,tie"])
    assert read_judgments(path)["winner"].iloc[0] == meaning


@pytest.mark.parametrize("names, cell", [(("B", "A"), "A"), (("B", "A"), "B"), (("2", "1"), "1"), (("2", "1"), "2"),
                                         (("y", "x"), "y"), (("right", "left"), "left"), (("tie", "B"), "tie"),
                                         (("B", "tie"), "tie"), (("b", "a"), "A"), (("y", "x"), "x")])
def test_a_winner_that_is_a_code_and_another_systems_name_is_refused(tmp_path, names, cell):
    """Systems called A/B, 1/2, x/y, left/right or tie: a winner cell that reads one way as a position code and
    the other way as a name is refused (read as a code, P(A > B) came out 0.17 instead of 1.0)."""
    path = write(tmp_path, "judgments", ["model_a,model_b,winner", f"{names[0]},{names[1]},{cell}"])
    one_line_error(lambda: read_judgments(path), "ambiguous", "line 2")


@pytest.mark.parametrize("names, cell, meaning", [(("A", "B"), "A", "left"), (("1", "2"), "2", "right"),
                                                  (("x", "y"), "y", "right"), (("left", "right"), "right", "right"),
                                                  (("a", "b"), "A", "left"), (("gpt", "llama"), "llama", "right"),
                                                  (("A", "B"), "model_b", "right"), (("tie", "B"), "B", "right")])
def test_a_winner_written_as_a_name_is_read_where_it_is_unambiguous(tmp_path, names, cell, meaning):
    """Where the position code and the name give the same answer, the answer is certain."""
    path = write(tmp_path, "judgments", ["model_a,model_b,winner", f"{names[0]},{names[1]},{cell}"])
    assert read_judgments(path)["winner"].iloc[0] == meaning


@pytest.mark.parametrize("cell", ["C", "model_c", "3", "?", "winner"])
def test_an_unknown_winner_names_the_line(tmp_path, cell):
    path = write(tmp_path, "judgments", ["model_a,model_b,winner", "A,B,model_a", f"A,B,{cell}"])
    one_line_error(lambda: read_judgments(path), repr(cell), "line 3")


def test_a_self_comparison_is_refused(tmp_path):
    path = write(tmp_path, "judgments", ["model_a,model_b,winner", "A,B,model_a", "A,A,tie"])
    one_line_error(lambda: read_judgments(path), "line 3", "with itself")


@pytest.mark.parametrize("cell, words", [("-1", ["weight", "line 3"]), ("nan", ["weight", "line 3"]),
                                         ("inf", ["infinite"]), ("heavy", ["not a number"])])
def test_bad_weights_are_refused(tmp_path, cell, words):
    path = write(tmp_path, "judgments", ["model_a,model_b,winner,weight", "A,B,model_a,1", f"A,B,tie,{cell}"])
    one_line_error(lambda: read_judgments(path), *words)


def test_weight_zero_judgments_are_left_out_of_every_mechanism(tmp_path, capsys):
    """200 zero-weight upsets must not put the weakest system first under Elo (they were played before)."""
    rows = ["model_a,model_b,winner,weight"] + ["A,B,model_a,1", "A,C,model_a,1", "B,C,model_a,1"] * 10
    rows += ["C,A,model_a,0", "C,B,model_a,0"] * 100
    path = write(tmp_path, "judgments", rows)
    payload, _ = _cli_json(tmp_path, capsys, path)
    systems = pd.DataFrame(payload["systems"]["data"], index=payload["systems"]["index"],
                           columns=payload["systems"]["columns"])
    for mechanism in ("bt", "elo", "trueskill", "win_rate"):
        assert systems[mechanism].idxmax() == "A" and systems[mechanism].idxmin() == "C", mechanism
    assert payload["settings"]["zero_weight"] == 200 and payload["settings"]["n_instances"] == 30


def test_only_zero_weights_is_an_error(tmp_path, capsys):
    path = write(tmp_path, "judgments", ["model_a,model_b,winner,weight", "A,B,model_a,0", "B,C,tie,0"])
    assert main(["compare", str(path), *FAST]) == 2
    assert "weight 0" in capsys.readouterr().err


# --- options that do not apply are errors, columns not used are named -------------------------------------------------

@pytest.mark.parametrize("option", [["--lower-is-better"], ["--align", "pairwise"],
                                    ["--align", "intersect"], ["--ties", "loss"]])
def test_score_file_options_on_judgments_are_refused(tmp_path, capsys, option):
    path = write(tmp_path, "judgments", lines("judgments"))
    human = write(tmp_path, "wide", lines("wide"))
    code = main(["compare", str(path), *[str(human) if o == "HUMAN" else o for o in option], *FAST])
    err = capsys.readouterr().err
    assert code == 2 and f"{option[0]} does not apply to a pairwise judgment file" in err, err


@pytest.mark.parametrize("layout, extra", [("long", "human"), ("long", "rater_note"), ("judgments", "question_id"),
                                           ("judgments", "judge")])
def test_columns_the_reader_does_not_use_are_named_on_the_first_line(tmp_path, capsys, layout, extra):
    rows = lines(layout)
    rows = [rows[0] + f",{extra}"] + [r + f",{k}" for k, r in enumerate(rows[1:])]
    path = write(tmp_path, layout, rows)
    assert main(["compare", str(path), *FAST]) == 0
    first = capsys.readouterr().err.splitlines()[0]
    assert first.startswith("compare:") and f"ignored columns: {extra}" in first, first


def test_a_where_column_is_not_reported_as_ignored(tmp_path, capsys):
    rows = lines("long")
    rows = [rows[0] + ",metric"] + [r + ",BLEU" for r in rows[1:]]
    path = write(tmp_path, "long", rows)
    assert main(["compare", str(path), "--where", "metric=BLEU", *FAST]) == 0
    assert "ignored" not in capsys.readouterr().err


@pytest.mark.parametrize("value, words", [("1000000000", ["--n-resamples", "1,000,000"]), ("0", ["--n-resamples"]),
                                          ("1.5", ["--n-resamples"]), ("-3", ["--n-resamples"])])
def test_resample_counts_out_of_range_are_refused_at_once(tmp_path, capsys, value, words):
    path = write(tmp_path, "wide", lines("wide"))
    assert main(["compare", str(path), "--n-resamples", value]) == 2
    err = capsys.readouterr().err
    assert all(w in err for w in words) and "Traceback" not in err


def test_resamples_that_would_not_fit_in_memory_are_refused(tmp_path, capsys):
    rows = ["model_a,model_b,winner"] + [f"m{i},m{i + 1},model_a" for i in range(400)]
    path = write(tmp_path, "judgments", rows)
    assert main(["compare", str(path), "--n-resamples", "1000000"]) == 2
    assert "GiB" in capsys.readouterr().err


# --- --human: matched by id, or refused -------------------------------------------------------------------------------

def test_human_without_ids_against_scores_with_ids_is_refused(tmp_path, capsys):
    scores = write(tmp_path, "long", lines("long"))
    human = tmp_path / "human.csv"
    MATRIX.iloc[::-1].to_csv(human, index=False)  # another row order, no ids: cannot be matched
    assert main(["compare", str(scores), "--human", str(human), *FAST]) == 2
    assert "cannot be matched" in capsys.readouterr().err


def test_human_by_row_position_only_where_neither_file_has_ids(tmp_path, capsys):
    scores, human = tmp_path / "s.csv", tmp_path / "h.csv"
    MATRIX.to_csv(scores, index=False)
    (MATRIX * 2).to_csv(human, index=False)
    payload, captured = _cli_json(tmp_path, capsys, scores, "--human", human)
    assert "matched by row position" in captured.err.splitlines()[0]
    assert payload["settings"]["human"]["sample_accuracy"] == 1.0


def test_a_long_human_file_matches_a_wide_score_file_by_id(tmp_path, capsys):
    scores = write(tmp_path, "wide", lines("wide"))
    human = write(tmp_path, "long", lines("long")[:1] + lines("long")[:0:-1], name="human.csv")  # rows reversed
    payload, _ = _cli_json(tmp_path, capsys, scores, "--human", human)
    assert payload["settings"]["human"]["sample_accuracy"] == 1.0


# --- printed tables ---------------------------------------------------------------------------------------------------

def test_markdown_escapes_pipes_in_names(tmp_path, capsys):
    path = tmp_path / "w.csv"
    MATRIX.rename(columns={"A": "gpt|4", "B": "B"}).to_csv(path, index=False)
    assert main(["compare", str(path), "--format", "markdown", *FAST]) == 0
    out = capsys.readouterr().out
    assert "gpt\\|4" in out
    for line in out.splitlines():
        if line.startswith("| gpt"):
            assert line.replace("\\|", "").count("|") == line.split("\n")[0].count("|") - line.count("\\|")


@pytest.mark.parametrize("name", ["A&B", "sys_1", "50%", "$x$", "a#b", "{c}", "x~y", "m^2", "back\\slash"])
def test_latex_escapes_special_characters(tmp_path, capsys, name):
    path = tmp_path / "w.csv"
    MATRIX.rename(columns={"A": name}).to_csv(path, index=False)
    assert main(["compare", str(path), "--format", "latex", *FAST]) == 0
    out = capsys.readouterr().out
    assert escape_latex(name) in out
    body = out.replace(escape_latex(name), "")
    assert name not in body or name in ("{c}",) and "\\{c\\}" in out


# --- issues 55 and 56: the fourth probe's silent answers, crashes, hangs and unnamed errors ---------------------------

def _error_line(capsys, *args) -> str:
    """Run the command expecting a refusal: exit 2, exactly one ``error:`` line and no traceback."""
    code = main(["compare", *map(str, args), *FAST])
    err = capsys.readouterr().err
    errors = [x for x in err.splitlines() if x.startswith("error:")]
    assert code == 2 and len(errors) == 1 and "Traceback" not in err, err
    return errors[0]


def _subprocess(*args, timeout=120, **kwargs):
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    return subprocess.run([sys.executable, "-m", "analysis", "compare", *map(str, args), *FAST], cwd=root,
                          capture_output=True, text=True, timeout=timeout, **kwargs)


def _judgment_lines(extra_header="", extra=()):
    rows = lines("judgments")
    if extra_header:
        rows = [rows[0] + extra_header] + [r + x for r, x in zip(rows[1:], extra)]
    return rows


@pytest.mark.parametrize("value", ['{"n": "x"}', '["x", "y"]'])
@pytest.mark.parametrize("column", ["model_a", "model_b", "winner", "weight"])
def test_a_json_lines_object_or_list_is_not_read_as_a_name(tmp_path, column, value):
    records = [{"model_a": a, "model_b": b, "winner": w, "weight": 1} for a, b, w in GAMES]
    records[2][column] = json.loads(value)
    text = [json.dumps(r) for r in records]
    path = write(tmp_path, "judgments", text, name="j.jsonl")
    one_line_error(lambda: read_judgments(path), str(path), "line 3", column)


def test_a_json_lines_object_as_instance_id_is_refused(tmp_path):
    records = [{"instance": {"a": i} if i == 11 else i, "system": s, "score": MATRIX.at[i, s]}
               for i in MATRIX.index for s in MATRIX]
    path = write(tmp_path, "long", [json.dumps(r) for r in records], name="l.jsonl")
    one_line_error(lambda: read_scores(path), str(path), "line 4", "instance")


@pytest.mark.parametrize("text, words", [
    ('{"model_a": "A", "model_b": "B", "winner": "model_a"}\n{"model_a": "A", "model_b": \n', ["line 2", "JSON"]),
    ('{"model_a": "A", "model_b": "B", "winner": "model_a"}\n[1, 2, 3]\n', ["line 2", "not an object"]),
    ('{"model_a": "A", "model_b": "B", "winner": "model_a"}\n"text"\n', ["line 2", "not an object"]),
    ("", ["no rows"]),
])
def test_malformed_json_lines_name_the_line(tmp_path, text, words):
    path = tmp_path / "j.jsonl"
    path.write_text(text)
    one_line_error(lambda: read_judgments(path), str(path), *words)


def test_an_unclosed_quote_names_its_line(tmp_path):
    path = write(tmp_path, "long", ["instance,system,score", "1,A,0.1", "1,B,0.2", '2,A,"0.3', "2,B,0.4"])
    message = one_line_error(lambda: read_scores(path), str(path), "line 4", "quote")
    assert message.count(str(path)) == 1, message


def test_a_short_row_names_the_file_once(tmp_path):
    path = write(tmp_path, "wide", ["instance,A,B", "1,0.1,0.2", "2,0.3"])
    message = one_line_error(lambda: read_scores(path), str(path), "line 3")
    assert message.count(str(path)) == 1, message


@pytest.mark.parametrize("layout", ["long", "wide", "judgments"])
def test_a_header_without_rows_says_so(tmp_path, layout):
    path = write(tmp_path, layout, lines(layout)[:1])
    one_line_error(lambda: read(layout, path), str(path), "no rows")


def test_lines_after_a_blank_line_are_named_by_their_file_line(tmp_path):
    path = write(tmp_path, "long", ["instance,system,score", "1,A,0.1", "", "1,B,0.2", "2,A,x", "2,B,0.4"])
    one_line_error(lambda: read_scores(path), str(path), "line 5")


def test_an_empty_item_id_names_its_line(tmp_path):
    path = write(tmp_path, "judgments", ["question_id,model_a,model_b,winner", "q1,A,B,model_a", ",A,C,tie",
                                         "q2,B,C,model_b"])
    one_line_error(lambda: read_judgments(path, item=True), str(path), "line 3", "question_id")


@pytest.mark.parametrize("fmt", ["csv", "jsonl", "parquet"])
@pytest.mark.parametrize("pair", [("winner", "Winner"), ("weight", "WEIGHT"), ("model_a", "Model_A"),
                                  ("model_b", " model_b")])
def test_judgment_columns_differing_only_in_case_are_one_line(tmp_path, capsys, pair, fmt):
    frame = pd.DataFrame(GAMES, columns=["model_a", "model_b", "winner"]).assign(weight=1.0)
    frame[pair[1]] = frame[pair[0]]
    path = tmp_path / f"j.{fmt}"
    {"csv": lambda: frame.to_csv(path, index=False), "parquet": lambda: frame.to_parquet(path),
     "jsonl": lambda: frame.to_json(path, orient="records", lines=True)}[fmt]()
    line = _error_line(capsys, path)
    assert str(path) in line and repr(pair[0]) in line, line
    assert repr(pair[1]) in line or fmt == "csv" and pair[1] == " model_b", line  # CSV headers are stripped


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
@pytest.mark.parametrize("pair", [("system", "System"), ("score", "SCORE"), ("instance", "Instance")])
def test_long_columns_differing_only_in_case_are_one_line(tmp_path, capsys, pair, fmt):
    frame = pd.DataFrame([(i, s, MATRIX.at[i, s]) for i in MATRIX.index for s in MATRIX],
                         columns=["instance", "system", "score"])
    frame[pair[1]] = frame[pair[0]]
    path = tmp_path / f"l.{fmt}"
    frame.to_parquet(path) if fmt == "parquet" else frame.to_json(path, orient="records", lines=True)
    line = _error_line(capsys, path)
    assert str(path) in line and repr(pair[0]) in line and repr(pair[1]) in line, line


def test_weighted_judgments_are_counted_by_weight_on_the_first_line(tmp_path, capsys):
    """A ``judgments`` column beside ``weight`` (an aggregated arena file): the first line says how many judgments
    the weights hold, not only how many rows; the unused column is named."""
    counts = [5, 3, 2, 4, 1, 6]
    path = write(tmp_path, "judgments", _judgment_lines(",weight,judgments", [f",{n},{n}" for n in counts]))
    payload, captured = _cli_json(tmp_path, capsys, path)
    first = captured.err.splitlines()[0]
    assert "6 rows" in first and "21 judgments" in first and "ignored columns: judgments" in first, first
    assert payload["settings"]["n_judgments_weighted"] == 21
    assert "21" in _first_report_line(tmp_path, capsys, path)


def _first_report_line(tmp_path, capsys, path) -> str:
    assert main(["compare", str(path), *FAST]) == 0
    return capsys.readouterr().out.splitlines()[0]


def test_unweighted_judgments_keep_the_plain_first_line(tmp_path, capsys):
    path = write(tmp_path, "judgments", lines("judgments"))
    assert main(["compare", str(path), *FAST]) == 0
    first = capsys.readouterr().err.splitlines()[0]
    assert "6 pairwise judgments" in first and "rows" not in first, first


# judge vs human -------------------------------------------------------------------------------------------------------

def _judge_and_human(tmp_path, judge_weight=None, human_weight=None):
    rng = np.random.default_rng(5)
    systems = ["A", "B", "C", "D"]
    rows = []
    for item in range(80):
        a, b = rng.choice(systems, 2, replace=False)
        human = rng.choice(["model_a", "model_b", "tie"], p=[0.45, 0.35, 0.2])
        judge = human if rng.random() < 0.7 else rng.choice(["model_a", "model_b", "tie"])
        rows.append((f"q{item}", a, b, judge, human))
    frame = pd.DataFrame(rows, columns=["question_id", "model_a", "model_b", "judge", "human"])
    judge = frame.drop(columns="human").rename(columns={"judge": "winner"})
    human = frame.drop(columns="judge").rename(columns={"human": "winner"})
    if judge_weight is not None:
        judge["weight"] = judge_weight
    if human_weight is not None:
        human["weight"] = human_weight
    judge.to_csv(tmp_path / "judge.csv", index=False)
    human.to_csv(tmp_path / "human.csv", index=False)
    return frame, tmp_path / "judge.csv", tmp_path / "human.csv"


def test_judge_verdicts_of_weight_zero_are_left_out_of_the_human_comparison(tmp_path, capsys):
    weight = np.where(np.arange(80) % 4 == 0, 0, 1)
    frame, judge, human = _judge_and_human(tmp_path, judge_weight=weight)
    payload, _ = _cli_json(tmp_path, capsys, judge, "--human", human)
    kept = frame[weight > 0]
    summary = payload["settings"]["human"]
    assert summary["items"] == len(kept) == 60
    assert summary["sample_accuracy"] == pytest.approx((kept["judge"] == kept["human"]).mean())


def test_human_verdicts_of_weight_zero_are_left_out(tmp_path, capsys):
    weight = np.where(np.arange(80) % 5 == 0, 0, 1)
    frame, judge, human = _judge_and_human(tmp_path, human_weight=weight)
    payload, _ = _cli_json(tmp_path, capsys, judge, "--human", human)
    kept = frame[weight > 0]
    summary = payload["settings"]["human"]
    assert summary["items"] == len(kept) and summary["human_zero_weight"] == 16
    assert summary["sample_accuracy"] == pytest.approx((kept["judge"] == kept["human"]).mean())


@pytest.mark.parametrize("side", ["judge", "human"])
def test_weights_the_human_comparison_cannot_use_are_refused(tmp_path, capsys, side):
    weight = np.where(np.arange(80) == 6, 2.5, 1.0)
    kwargs = {f"{side}_weight": weight}
    _, judge, human = _judge_and_human(tmp_path, **kwargs)
    line = _error_line(capsys, judge, "--human", human)
    assert str(judge if side == "judge" else human) in line and "'weight'" in line and "line 8" in line, line


@pytest.mark.parametrize("fmt", ["markdown", "csv", "latex"])
@pytest.mark.parametrize("kind", ["judgments", "scores"])
def test_human_tables_are_printed_in_every_format(tmp_path, capsys, fmt, kind):
    if kind == "judgments":
        _, path, human = _judge_and_human(tmp_path)
    else:
        path = write(tmp_path, "wide", lines("wide"))
        human = write(tmp_path, "long", lines("long"), name="human.csv")
    assert main(["compare", str(path), "--human", str(human), "--format", fmt, *FAST]) == 0
    out = capsys.readouterr().out
    assert "Favi" in out and "sign accuracy" in out, out


def test_the_humans_duplicate_verdicts_name_the_file_and_lines(tmp_path, capsys):
    _, judge, human = _judge_and_human(tmp_path)
    h = pd.read_csv(human)
    pd.concat([h, h.iloc[[2]]]).to_csv(human, index=False)
    line = _error_line(capsys, judge, "--human", human)
    assert str(human) in line and "lines 4 and 82" in line, line


def test_the_human_files_unused_columns_are_named(tmp_path, capsys):
    frame, judge, human = _judge_and_human(tmp_path)
    pd.read_csv(human).assign(annotator="x").to_csv(human, index=False)
    _, captured = _cli_json(tmp_path, capsys, judge, "--human", human)
    first = captured.err.splitlines()[0]
    assert f"--human {human}" in first and "ignored columns: annotator" in first, first


# wide files: an id-like first column ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["key", "sample", "doc", "id", "instance"])
def test_a_first_column_read_as_ids_is_said_on_the_first_line(tmp_path, capsys, name):
    path = write(tmp_path, "wide", [f"{name},A,B,C"] + lines("wide")[1:])
    assert main(["compare", str(path), *FAST]) == 0
    first = capsys.readouterr().err.splitlines()[0]
    assert "3 systems" in first and f"column {name!r} read as the instance ids" in first, first


@pytest.mark.parametrize("name", ["key", "sample", "doc"])
def test_an_id_named_column_of_scores_is_refused_not_lost(tmp_path, capsys, name):
    """The probe's case: four systems, the first called ``key``; its cells are scores, not ids."""
    rows = [f"{name},A,B,C"] + [",".join(map(str, [0.3 + 0.1 * k, *MATRIX.iloc[k]])) for k in range(4)]
    path = write(tmp_path, "wide", rows)
    line = _error_line(capsys, path)
    assert str(path) in line and repr(name) in line and "rename" in line, line


# options a mode ignores -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["csv", "markdown", "latex", "text"])
def test_a_format_with_json_to_standard_output_is_refused(tmp_path, capsys, fmt):
    path = write(tmp_path, "wide", lines("wide"))
    line = _error_line(capsys, path, "--json", "-", "--format", fmt)
    assert "--format" in line and "--json -" in line, line


def test_json_to_standard_output_without_format_still_works(tmp_path, capsys):
    path = write(tmp_path, "wide", lines("wide"))
    assert main(["compare", str(path), "--json", "-", *FAST]) == 0
    assert json.loads(capsys.readouterr().out)["settings"]["n_systems"] == 3


# names equal after Unicode normalisation ------------------------------------------------------------------------------

UNICODE_PAIRS = {"e-acute NFC/NFD": ("\u00e9", "e\u0301"), "fi ligature": ("\ufb01", "fi"),
                 "fullwidth A": ("\uff21", "A")}


@pytest.mark.parametrize("pair", UNICODE_PAIRS.values(), ids=UNICODE_PAIRS.keys())
@pytest.mark.parametrize("layout", ["wide", "judgments"])
def test_names_equal_after_unicode_normalisation_stay_apart(tmp_path, capsys, pair, layout):
    first, second = pair
    if layout == "wide":
        path = write(tmp_path, "wide", [f"instance,{first},{second},C"] + lines("wide")[1:])
    else:
        rows = [r.replace("A", first).replace("B", second) if k else r for k, r in enumerate(lines("judgments"))]
        path = write(tmp_path, "judgments", rows)
    out = tmp_path / "out"
    payload, _ = _cli_json(tmp_path, capsys, path, "--out", out)
    assert {first, second} <= set(payload["systems"]["index"]) and payload["settings"]["n_systems"] == 3
    systems = pd.read_csv(out / "systems.csv", index_col=0)
    assert {first, second} <= set(systems.index)
    for fmt in ("text", "markdown", "csv", "latex"):
        assert main(["compare", str(path), "--format", fmt, *FAST]) == 0
        assert first in capsys.readouterr().out


def test_names_equal_after_normalisation_stay_apart_in_the_human_comparison(tmp_path, capsys):
    scores = write(tmp_path, "wide", ["instance,\u00e9,e\u0301,C"] + lines("wide")[1:])
    human = write(tmp_path, "wide", ["instance,\u00e9,e\u0301,C"] + lines("wide")[1:], name="human.csv")
    payload, _ = _cli_json(tmp_path, capsys, scores, "--human", human)
    assert payload["settings"]["human"]["sample_accuracy"] == 1.0


# outputs: closed stdout, special files, folders created, leftovers removed --------------------------------------------

def test_a_closed_standard_output_is_one_line(tmp_path):
    """``compare FILE >&-``: the report has nowhere to go; one line on stderr and exit 2, before any work."""
    import os
    import subprocess
    import sys

    path = write(tmp_path, "wide", lines("wide"))
    result = subprocess.run([sys.executable, "-m", "analysis", "compare", str(path), *FAST], stderr=subprocess.PIPE,
                            text=True, timeout=120, cwd=Path(__file__).resolve().parent.parent,
                            preexec_fn=lambda: os.close(1))
    err = result.stderr
    assert result.returncode == 2 and "Traceback" not in err and "standard output" in err, err
    assert len([x for x in err.splitlines() if x.startswith("error:")]) == 1, err


def test_json_to_a_fifo_is_refused_not_hung(tmp_path):
    """A FIFO blocks the writer until a reader comes (for ever, with none); refused as inputs are, whether or not a
    reader waits (probing for one would hand the reader an end of file). ``--json -`` is standard output."""
    import os

    path = write(tmp_path, "wide", lines("wide"))
    fifo = tmp_path / "r.json"
    os.mkfifo(fifo)
    result = _subprocess(path, "--json", fifo, timeout=60)
    assert result.returncode == 2 and "--json" in result.stderr and "FIFO" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("name", ["systems.csv", "pairwise.png"])
def test_a_special_file_inside_the_out_folder_is_refused_not_hung(tmp_path, name):
    import os

    path = write(tmp_path, "wide", lines("wide"))
    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / name)
    result = _subprocess(path, "--out", out, timeout=60)
    assert result.returncode == 2 and "--out" in result.stderr and name in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and not list(out.glob(".*.part"))


def test_json_to_a_device_is_still_written_directly(tmp_path, capsys):
    """A character device is not refused (it does not wait for a reader): /dev/null takes the JSON."""
    path = write(tmp_path, "wide", lines("wide"))
    assert main(["compare", str(path), "--json", "/dev/null", *FAST]) == 0, capsys.readouterr().err


def test_json_inside_an_out_folder_that_does_not_exist_yet(tmp_path, capsys):
    path = write(tmp_path, "wide", lines("wide"))
    out = tmp_path / "new" / "report"
    payload, _ = _cli_json(tmp_path, capsys, path, "--out", out)  # --json r.json beside it: the usual case
    code = main(["compare", str(path), "--out", str(out / "again"), "--json", str(out / "again" / "r.json"), *FAST])
    assert code == 0, capsys.readouterr().err
    assert json.loads((out / "again" / "r.json").read_text())["settings"]["n_systems"] == 3
    assert (out / "again" / "systems.csv").is_file()


def test_json_in_a_missing_folder_outside_out_is_still_refused(tmp_path, capsys):
    path = write(tmp_path, "wide", lines("wide"))
    line = _error_line(capsys, path, "--out", tmp_path / "out", "--json", tmp_path / "elsewhere" / "r.json")
    assert "--json" in line and "does not exist" in line, line


def test_leftovers_of_a_killed_run_are_removed_by_the_next(tmp_path, capsys):
    import subprocess

    path = write(tmp_path, "wide", lines("wide"))
    out = tmp_path / "out"
    out.mkdir()
    dead = subprocess.Popen(["true"])
    dead.wait()
    ours = [out / f".systems.csv.{dead.pid}.abc123.csv.part", tmp_path / f".r.json.{dead.pid}.x_9.json.part"]
    alive = out / f".prob.csv.{__import__('os').getpid()}.zz.csv.part"  # a writer still running: kept
    foreign = [out / "notes.part", out / ".other.txt.1.a.txt.part"]  # not a temporary of an output of ours: kept
    for p in [*ours, alive, *foreign]:
        p.write_text("partial")
    code = main(["compare", str(path), "--out", str(out), "--json", str(tmp_path / "r.json"), *FAST])
    assert code == 0, capsys.readouterr().err
    assert not any(p.exists() for p in ours) and alive.exists() and all(p.exists() for p in foreign)


def test_a_covariate_error_names_the_file_and_the_option(tmp_path, capsys):
    path = write(tmp_path, "judgments", _judgment_lines(",len", [",0"] * 6))  # carries nothing
    line = _error_line(capsys, path, "--covariates", "len")
    assert str(path) in line and "--covariates len" in line, line


def test_a_judgment_file_as_human_ratings_of_scores_is_refused(tmp_path, capsys):
    scores = write(tmp_path, "wide", lines("wide"))
    human = write(tmp_path, "judgments", lines("judgments"))
    line = _error_line(capsys, scores, "--human", human)
    assert f"--human {human}" in line and "pairwise judgments" in line, line


def test_a_closed_standard_error_leaves_standard_output_clean(tmp_path):
    """``compare FILE --json - 2>&-``: the progress lines must not fall back to standard output, into the JSON."""
    import os
    import subprocess
    import sys

    path = write(tmp_path, "wide", lines("wide"))
    result = subprocess.run([sys.executable, "-m", "analysis", "compare", str(path), "--json", "-", *FAST],
                            stdout=subprocess.PIPE, text=True, timeout=120, cwd=Path(__file__).resolve().parent.parent,
                            preexec_fn=lambda: os.close(2))
    assert result.returncode == 0 and json.loads(result.stdout)["settings"]["n_systems"] == 3, result.stdout[:300]


def test_a_parquet_index_is_read_as_a_column_not_dropped(tmp_path, capsys):
    """A Parquet file written from a frame indexed by its instances keeps them: the index is the id column."""
    path = tmp_path / "w.parquet"
    MATRIX.rename_axis("instance").to_parquet(path)
    scores = read_scores(path)
    assert list(scores.index) == list(MATRIX.index) and scores.attrs["id_column"] == "instance"
    assert list(scores.columns) == ["A", "B", "C"]


def test_a_json_lines_object_with_a_key_twice_is_refused(tmp_path):
    rows = [json.dumps({"model_a": a, "model_b": b, "winner": w}) for a, b, w in GAMES]
    rows[1] = rows[1][:-1] + ', "winner": "model_a"}'
    path = write(tmp_path, "judgments", rows, name="j.jsonl")
    one_line_error(lambda: read_judgments(path), str(path), "line 2", "'winner'", "twice")


def test_duplicate_ids_in_an_id_named_column_hint_that_it_may_be_a_system(tmp_path):
    rows = ["key,A,B,C"] + [",".join(map(str, [k % 2 + 1, *MATRIX.iloc[k]])) for k in range(4)]
    path = write(tmp_path, "wide", rows)
    one_line_error(lambda: read_scores(path), str(path), "'key'", "lines 2 and 4", "rename")


def test_the_human_score_files_unused_columns_are_named(tmp_path, capsys):
    scores = write(tmp_path, "long", lines("long"))
    rows = lines("long")
    human = write(tmp_path, "long", [rows[0] + ",weight"] + [r + ",2" for r in rows[1:]], name="human.csv")
    _, captured = _cli_json(tmp_path, capsys, scores, "--human", human)
    first = captured.err.splitlines()[0]
    assert f"--human {human}" in first and "ignored columns: weight" in first, first
