"""CEval, the paper's own text-generation data (Levtsov & Ustalov 2025): quality and global scores (Appendix C.1)
and the penalised outputs of Sec. 6 (Appendix C.2, Table 6)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import spearmanr

from ... import sweeps
from ...data import published
from ...data.gvp import text_quality as text_quality
from ...sweeps import copies_ap
from .classification import with_bt_interval

#: CEval method -> the name the paper prints (Appendix C); "expert" is the reference, llama_06 is not in the paper
CEVAL_MODELS = {"crowd": "Crowd", "mice": "MICE", "llama_02": "Llama 2", "llama_1": "LLaMA", "gbda": "GDBA",
                "crest": "Crest"}
CEVAL_REFERENCE = "expert"
#: the models of Fig. 1 ("five models"): the six without Crowd, the human-written counterfactuals (an assumption)
FIG1_MODELS = ("MICE", "Llama 2", "LLaMA", "GDBA", "Crest")


def ceval_outputs(ceval: pd.DataFrame) -> tuple[pd.DataFrame, pd.Series]:
    """(instances x models) generated texts under the paper's model names, and the reference (the expert
    counterfactuals). A missing generation (4 for Llama 2, 7 for LLaMA) is scored as the empty string."""
    texts = ceval.pivot(index="instance", columns="method", values="gen_text")
    if texts[CEVAL_REFERENCE].isna().any():
        raise ValueError("the CEval reference (expert) has missing texts")
    outputs = texts[list(CEVAL_MODELS)].rename(columns=CEVAL_MODELS).astype(object).where(lambda t: t.notna(), "")
    return outputs, texts[CEVAL_REFERENCE].astype(str)


def global_scores(quality: dict[str, pd.DataFrame], *, rng, n_trials: int) -> pd.DataFrame:
    """Appendix C.1: mean ED, WER and chrF per model, and BT from chrF-decided matches with its 95% interval."""
    table = pd.DataFrame({name: frame.mean() for name, frame in quality.items()})
    bt = sweeps.bradley_terry_interval(sweeps.matches(quality["chrf"]), rng, n_trials)
    return table.join(bt).rename_axis("model").reset_index()


def appendix_c1(scores: pd.DataFrame) -> pd.DataFrame:
    """Ours next to Appendix C.1's values, model by model, and the difference of ED, WER and chrF."""
    columns = ["ed", "wer", "chrf", "bt"]
    ours = scores.set_index("model")[columns]
    paper = published.frame("gvp", "appendix_c1").set_index("model")[columns]
    return pd.concat({"here": ours, "paper": paper, "difference": (ours - paper)[columns[:3]].round(4)}, axis=1)


def ceval_values(scores: pd.DataFrame, scores_c2: pd.DataFrame) -> dict:
    """Claim values, CEval (Appendix C, §6): the paper's C.1 BT inside our interval, and whether BT keeps a copy
    nearer its original than ED and WER do (:func:`copy_displacement`)."""
    paper = published.frame("gvp", "appendix_c1").set_index("model")["bt"]
    ours = scores.set_index("model")
    values = {f"c1 paper bt inside ours {m}": (float(ours.loc[m, "bt"]),
                                               bool(ours.loc[m, "bt_low"] <= paper[m] <= ours.loc[m, "bt_high"]))
              for m in paper.index}
    moved = copy_displacement(scores_c2)
    values.update({f"c2 copy displacement {k}": float(v) for k, v in moved.items()})
    nearer = min(moved["ed"], moved["wer"]) - moved["bt"]
    values["c2 bt keeps copies nearer than ed and wer"] = (float(nearer), bool(nearer > 0))
    # §6: after appending random strings, WER and chrF still rank the models (originals and copies) as BT does
    for name, quality in (("-wer", -scores_c2["wer"]), ("chrf", scores_c2["chrf"])):
        values[f"c2 spearman bt with {name}"] = float(spearmanr(quality, scores_c2["bt"]).statistic)
    return values


#: the alternative length of the appended strings (an arbitrary "long" string), measured against the one C.2 implies
FIRST_PENALTY_LENGTH = 1000


def penalty_length_from_paper(n: int, share: float) -> int:
    """The length of Sec. 6's "random long strings" that C.2's printed rise in ED implies: L characters after a
    space add up to L + 1 to an output's ED, so a mean rise R on ``count`` of ``n`` outputs needs L = R·n/count - 1."""
    count = int(round(share * n))  # the outputs :func:`penalise` appends to
    if count == 0:
        raise ValueError(f"a share of {share} of {n} outputs penalises none")
    return int(round(penalty_rise() * n / count - 1))


def penalise(outputs: pd.DataFrame, rng, share: float = 0.05, length: int = 1000) -> pd.DataFrame:
    """Sec. 6: ``length`` random letters and spaces appended to a random ``share`` of each model's outputs."""
    gen = np.random.default_rng(rng)
    alphabet = np.array(list("abcdefghijklmnopqrstuvwxyz     "))
    out, n = outputs.copy(), len(outputs)
    for k in range(outputs.shape[1]):
        for r in gen.choice(n, size=int(round(share * n)), replace=False):
            out.iloc[r, k] += " " + "".join(gen.choice(alphabet, length))
    return out.rename(columns=lambda m: f"Penalized {m}")


def penalised_ap(scores: pd.DataFrame, chrf: pd.DataFrame, *, rng, n_trials: int) -> pd.DataFrame:
    """Table 6: each measure's AP of the originals above their penalised copies, ED and WER as distances and, as
    the paper's values suggest, read higher-is-better; BT's interval from ``chrf``-decided matches."""
    measures = scores.set_index("model")[["ed", "wer", "chrf", "bt"]]
    originals = [m for m in measures.index if not m.startswith("Penalized ")]
    table = pd.DataFrame({"ap": copies_ap(measures, originals),
                          "ap_higher_is_better": copies_ap(measures, originals, lower_is_better=())}
                         ).rename_axis("measure")
    return with_bt_interval(table, chrf, originals, rng=rng, n_trials=n_trials)


def penalty_rise(scores: pd.DataFrame | None = None) -> float:
    """Mean rise of ED from each model to its penalised copy (rows as Appendix C.2's; default: the paper's C.2)."""
    ed = (published.frame("gvp", "appendix_c2") if scores is None else scores).set_index("model")["ed"]
    return float(np.mean([ed[f"Penalized {m}"] - ed[m] for m in ed.index if not m.startswith("Penalized ")]))


def copy_displacement(scores: pd.DataFrame) -> pd.Series:
    """Sec. 6, "rare but significant errors": per measure the mean places between each original and its penalised
    copy in C.2's twelve rows (ED and WER as distances, ties share the best place); 1 when each copy is right below."""
    table = scores.set_index("model")[["ed", "wer", "chrf", "bt"]]
    originals = [m for m in table.index if not m.startswith("Penalized ")]
    places = table.assign(ed=-table["ed"], wer=-table["wer"]).rank(ascending=False, method="min")
    moved = places.loc[[f"Penalized {m}" for m in originals]].to_numpy() - places.loc[originals].to_numpy()
    return pd.Series(moved.mean(axis=0), index=places.columns, name="displacement")
