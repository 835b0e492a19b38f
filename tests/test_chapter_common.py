"""The chapters' shared machinery (analysis.chapters.common) and the rules every chapter module follows."""

import pytest

from analysis import profiles
from analysis.agreement import pair_label
from analysis.chapters import (
    favoritism,
    global_vs_pairwise,
    real_setups,
    simulation,
    why_pairing,
    wmt_stability,
    your_own_scores,
)
from analysis.chapters.common import Timings, check_parameters, outputs
from analysis.data import published
from analysis.notebooks import chapter_parameters


def test_outputs_record_exactly_the_notebooks_declared_parameters(tmp_path):
    namespace = dict(seed=7, n_per_type=3, n_fig2=4, n_prop1_setups=5, output_root=str(tmp_path), unrelated=len,
                     CONSTANT=3, _private=1, In=[], Out={})
    out = outputs(why_pairing.CHAPTER, namespace)
    assert out.parameters == dict(seed=7, n_per_type=3, n_fig2=4, n_prop1_setups=5)
    assert out.dir == tmp_path / why_pairing.CHAPTER
    del namespace["n_fig2"]
    with pytest.raises(ValueError, match=r"\['n_fig2'\] are declared but not defined"):
        outputs(why_pairing.CHAPTER, namespace)


@pytest.mark.parametrize("typo, near", [("n_fig", "n_fig2"), ("Seed", "seed"), ("n_per_types", "n_per_type"),
                                        ("colour", None)])
def test_a_mistyped_papermill_parameter_is_refused_naming_the_real_ones(tmp_path, typo, near):
    """``papermill ... -p n_fig 50`` injects a variable the notebook never reads: the run stops in its first cell,
    naming the unknown parameter, the one it was probably meant to be, and the notebook's parameters."""
    namespace = dict(seed=7, n_per_type=3, n_fig2=4, n_prop1_setups=5, output_root=str(tmp_path), **{typo: 50})
    with pytest.raises(ValueError, match=f"unknown parameter '{typo}'") as err:
        outputs(why_pairing.CHAPTER, namespace)
    assert (f"did you mean '{near}'" in str(err.value)) == (near is not None)
    assert "'n_prop1_setups'" in str(err.value)


CHAPTER_MODULES = profiles.chapter_modules()


@pytest.mark.parametrize("module", CHAPTER_MODULES, ids=lambda m: m.CHAPTER)
def test_every_parameter_has_a_rule_and_the_defaults_and_profiles_pass_it(module):
    declared = chapter_parameters(module.CHAPTER)
    assert set(module.PARAMETERS) == set(declared) - {"output_root"}
    check_parameters(module.PARAMETERS, declared)
    for profile in profiles.PROFILES:
        check_parameters(module.PARAMETERS, declared | profiles.parameters_for(profile, module.CHAPTER))


@pytest.mark.parametrize("module,name,value,message", [
    (why_pairing, "n_per_type", "abc", "parameter n_per_type must be an integer >= 2, got 'abc'"),
    (why_pairing, "n_per_type", -5, "parameter n_per_type must be an integer >= 2, got -5"),
    (why_pairing, "seed", 7.5, "parameter seed must be an integer >= 0, got 7.5"),
    (why_pairing, "seed", True, "parameter seed must be an integer"),
    (simulation, "n_systems", [2, 1], r"parameter n_systems\[1\] must be an integer >= 2, got 1"),
    (simulation, "outlier_fractions", 0.1, "parameter outlier_fractions must be a non-empty list"),
    (simulation, "tie_resolution", 0.0, r"parameter tie_resolution must be a finite number in \(0"),
    (real_setups, "alpha", 1.5, r"parameter alpha must be a finite number in \(0, 1\)"),
    (real_setups, "fig5_setup", ["WMT19", "de-en"], "parameter fig5_setup must be 3 values"),
    (real_setups, "collections", "TAC", "parameter collections must be a non-empty list"),
    (wmt_stability, "variant", "two-sided", r"parameter variant must be one of \['scipy<1.7', 'greater'\]"),
    (wmt_stability, "divisors", [2, 1], r"parameter divisors\[1\] must be a finite number in \(1"),
    (wmt_stability, "bootstrap_experiments", ["divide_3"], r"parameter bootstrap_experiments\[0\] must be one of"),
    (favoritism, "datasets", ["wmt23"], r"parameter datasets\[0\] must be one of \['wmt22-ende'"),
    (favoritism, "sign_test_ties", "split", r"parameter sign_test_ties must be one of \['drop', 'half'\]"),
    (global_vs_pairwise, "tie_step", 0.0, r"parameter tie_step must be a finite number in \(0, 1\]"),
    (your_own_scores, "format", "xlsx", r"parameter format must be one of \['auto'"),
    (your_own_scores, "lower_is_better", "no", "parameter lower_is_better must be a bool"),
])
def test_a_bad_parameter_is_named_where_it_enters(tmp_path, module, name, value, message):
    namespace = chapter_parameters(module.CHAPTER) | {"output_root": str(tmp_path), name: value}
    with pytest.raises(ValueError, match=message):
        outputs(module, namespace)
    assert not any(tmp_path.iterdir())  # refused before anything was written


def test_timings_record_even_when_the_block_raises():
    timings = Timings()
    with timings.measure("ok"):
        pass
    with pytest.raises(RuntimeError), timings.measure("failed"):
        raise RuntimeError
    assert set(timings) == {"ok", "failed"} and list(timings.table().columns) == ["seconds"]
    assert pair_label(("mean", "average_win_rate")) == "MEAN vs. average_win_rate"


def test_published_values_carry_their_source_and_fail_clearly():
    assert published.item("paired", "section5")["system_pairs"] == 73471
    assert all("source" in v for v in published.load("paired").values())
    with pytest.raises(KeyError, match="no published item 'table9'"):
        published.item("paired", "table9")
    with pytest.raises(ValueError, match="no published values for paper 'nope'"):
        published.load("nope")


def test_glue_problems_name_a_pasted_key_no_cell_glued_and_a_key_glued_twice():
    import nbformat

    from analysis.notebooks import glue_problems

    def glued(key):
        return nbformat.v4.new_output("display_data", data={"text/plain": "1"},
                                      metadata={"scrapbook": {"name": key, "mime_prefix": ""}})

    code = nbformat.v4.new_code_cell("glue(...)")
    code.outputs = [glued("share"), glued("verdict-x")]
    text = nbformat.v4.new_markdown_cell("A share of {glue:text}`share:.1%`, {glue:md}`verdict-x` and "
                                         "{glue:text}`missing:,`.\n\n```{glue:figure} fig_missing\n```")
    nb = nbformat.v4.new_notebook(cells=[text, code])
    assert glue_problems(nb) == ["the text pastes 'missing', which no cell glued",
                                 "the text pastes 'fig_missing', which no cell glued"]
    code.outputs.append(glued("share"))
    text.source = "{glue:text}`share`"
    assert glue_problems(nb) == ["'share' is glued 2 times"]
