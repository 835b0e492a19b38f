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
from analysis.data.scorefiles import WINNER_WORDS, ScoreFileError, read_judgments, read_scores

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


# --- names --------------------------------------------------------------------------------------------------------------

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


# --- instance ids -------------------------------------------------------------------------------------------------------

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


# --- score values -------------------------------------------------------------------------------------------------------

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


# --- degenerate data: said in the text and the JSON ---------------------------------------------------------------------

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


# --- judgment winners ---------------------------------------------------------------------------------------------------

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


# --- options that do not apply are errors, columns not used are named ---------------------------------------------------

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


# --- printed tables -----------------------------------------------------------------------------------------------------

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
