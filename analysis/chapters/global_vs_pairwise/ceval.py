"""CEval, the paper's exact text-generation data: per-instance quality and global scores (Appendix C.1), and the
penalised outputs of Sec. 6 (Appendix C.2, Table 6)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ... import sweeps
from ...data import published
from ...data.gvp import text_quality as text_quality
from ...sweeps import copies_ap
from .shared import bt_ap_interval

#: CEval method -> the name the paper prints (Appendix C); "expert" is the reference, llama_06 is not in the paper
CEVAL_MODELS = {"crowd": "Crowd", "mice": "MICE", "llama_02": "Llama 2", "llama_1": "LLaMA", "gbda": "GDBA",
                "crest": "Crest"}
CEVAL_REFERENCE = "expert"
#: the models of Fig. 1 ("five models"): the six without Crowd, the human-written counterfactuals (an assumption)
FIG1_MODELS = ("MICE", "Llama 2", "LLaMA", "GDBA", "Crest")


# -- CEval: per-instance quality and global scores (Appendix C.1) -----------------------------------------------------


def ceval_outputs(ceval: pd.DataFrame) -> tuple[pd.DataFrame, pd.Series]:
    """(instances x models) generated texts under the paper's model names, and the reference (the expert
    counterfactuals). A missing generation (4 for Llama 2, 7 for LLaMA) is scored as the empty string."""
    texts = ceval.pivot(index="instance", columns="method", values="gen_text")
    reference = texts[CEVAL_REFERENCE]
    if reference.isna().any():
        raise ValueError("the CEval reference (expert) has missing texts")
    outputs = texts[list(CEVAL_MODELS)].rename(columns=CEVAL_MODELS).astype(object).where(lambda t: t.notna(), "")
    return outputs, reference.astype(str)


def global_scores(quality: dict[str, pd.DataFrame], *, rng, n_trials: int) -> pd.DataFrame:
    """Appendix C.1: mean ED, WER and chrF per model, and BT from chrF-decided matches (a model wins an instance
    when its chrF is higher) on every instance with the paper's 95% interval over ``n_trials`` sampled match sets."""
    table = pd.DataFrame({name: frame.mean() for name, frame in quality.items()})
    bt = sweeps.bradley_terry_interval(sweeps.matches(quality["chrf"]), rng, n_trials)
    return table.join(bt).rename_axis("model").reset_index()


# -- CEval: penalised outputs (Appendix C.2, Table 6) -----------------------------------------------------------------


#: the alternative length of the appended strings (an arbitrary "long" string), measured against the one C.2 implies
FIRST_PENALTY_LENGTH = 1000


def penalised_count(n: int, share: float) -> int:
    """How many of a model's ``n`` outputs get a string appended (:func:`penalise`)."""
    return int(round(share * n))


def penalty_length_from_paper(n: int, share: float) -> int:
    """The length of the appended strings that Appendix C.2's printed rise in ED implies: a string of L characters
    appended after a space adds up to L + 1 insertions to an output's edit distance from the reference, on
    :func:`penalised_count` of the ``n`` outputs, so a mean rise R per model needs L = R · n / count - 1 (rounded).
    The paper gives only "random long strings" (Sec. 6); this reads their length off its own C.2."""
    rise = penalty_rise(published.frame("gvp", "appendix_c2"))
    count = penalised_count(n, share)
    if count == 0:
        raise ValueError(f"a share of {share} of {n} outputs penalises none")
    return int(round(rise * n / count - 1))


def penalise(outputs: pd.DataFrame, rng, share: float = 0.05, length: int = 1000) -> pd.DataFrame:
    """Sec. 6: a random long string (``length`` random letters and spaces) appended to a random ``share`` of each
    model's outputs; columns renamed "Penalized <model>"."""
    gen = np.random.default_rng(rng)
    alphabet = np.array(list("abcdefghijklmnopqrstuvwxyz     "))
    out = outputs.copy()
    n = len(outputs)
    for model in outputs.columns:
        rows = gen.choice(n, size=penalised_count(n, share), replace=False)
        for r in rows:
            out.iloc[r, out.columns.get_loc(model)] += " " + "".join(gen.choice(alphabet, length))
    return out.rename(columns=lambda m: f"Penalized {m}")


def penalised_ap(scores: pd.DataFrame, chrf: pd.DataFrame | None = None, *, rng=None,
                 n_trials: int = 0) -> pd.DataFrame:
    """Table 6: average precision of each measure's ranking at putting the originals above their penalised copies
    (originals relevant), with ED and WER oriented lower-is-better; and, as the paper's values suggest it did, with
    every measure taken as higher-is-better. With ``chrf`` (instances x originals and copies) and ``n_trials``,
    BT's AP also as the paper's interval over sampled match sets (``ap_low``, ``ap_high``)."""
    measures = scores.set_index("model")[["ed", "wer", "chrf", "bt"]]
    originals = [m for m in measures.index if not m.startswith("Penalized ")]
    table = pd.DataFrame({"ap": copies_ap(measures, originals),
                          "ap_higher_is_better": copies_ap(measures, originals, lower_is_better=())}
                         ).rename_axis("measure")
    if chrf is not None and n_trials:
        table["ap_low"], table["ap_high"] = np.nan, np.nan
        table.loc["bt", ["ap_low", "ap_high"]] = bt_ap_interval(chrf, originals, rng=rng, n_trials=n_trials)
    return table


def penalty_rise(scores: pd.DataFrame) -> float:
    """Mean rise of ED from each model to its penalised copy (Appendix C.2's rows)."""
    ed = scores.set_index("model")["ed"]
    originals = [m for m in ed.index if not m.startswith("Penalized ")]
    return float(np.mean([ed[f"Penalized {m}"] - ed[m] for m in originals]))


def copy_displacement(scores: pd.DataFrame, lower_is_better=("ed", "wer")) -> pd.Series:
    """Sec. 6, "rare but significant errors": per measure (ED, WER, chrF, BT), the mean number of places between
    each original and its penalised copy when the twelve rows of Appendix C.2 are ranked by the measure (best
    first, ties sharing the best place); 1 when every copy sits right below its original."""
    table = scores.set_index("model")[["ed", "wer", "chrf", "bt"]]
    originals = [m for m in table.index if not m.startswith("Penalized ")]
    out = {}
    for c in table.columns:
        place = table[c].rank(ascending=c in lower_is_better, method="min")
        out[c] = float(np.mean([place[f"Penalized {m}"] - place[m] for m in originals]))
    return pd.Series(out, name="displacement")
