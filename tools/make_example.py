"""Write the example score file shipped in examples/ (run after `make data`; the file is committed, this script
documents exactly how it was derived):

    python tools/make_example.py

It is one setup of the `paired_setups` table: BT-eval's TopicalChat dialogue data (Peyrard et al. 2021; responses
of the USR TopicalChat set, Mehri & Eskenazi 2020) scored by chrF++, as published in BT-eval's
Data/Dialogue_dataframe.pickle, in long format (instance, system, score).
"""

import pandas as pd

from analysis.data import load_table
from analysis.paths import repo_root

ROOT = repo_root()  # the checkout load_table reads from, so table and target never belong to different ones
table = load_table("paired_setups")
setup = table[(table.collection == "Dialogue") & (table.dataset == "tc") & (table.metric == "Chrfpp")]
out = setup[["instance", "system", "score"]].sort_values(["instance"], kind="stable")
target = ROOT / "examples" / "topicalchat_chrfpp.csv"
out.to_csv(target, index=False, lineterminator="\n")
print(f"{target}: {len(out)} rows, {out.system.nunique()} systems x {out.instance.nunique()} instances")

# --- issue 30: one incomplete and one pairwise example -------------------------------------------------------------

# WMT20 zh-en official segment z-scores (registry source `wmt20-da`, table `wmt_segments`): 6 of the 17 systems on
# the first 200 segments of the test set, each system with the segments WMT's raters scored (so systems are scored
# on different segments, as in the full set)
segments = load_table("wmt_segments")
zh = segments[(segments.year == 2020) & (segments.pair == "zh-en")]
keep = ["WeChat_AI.1525", "Tencent_Translation.1249", "DiDi_NLP.401", "Huoshan_Translate.919", "Online-B.1605",
        "HUMAN.0"]
first = sorted(pd.unique(zh.segment.astype(int)))[:200]
part = zh[zh.system.isin(keep) & zh.segment.astype(int).isin(first)]
part = part.assign(instance=part.segment.astype(int), score=part.z.round(6))[["instance", "system", "score"]]
part = part.sort_values(["instance", "system"], kind="stable")
target = ROOT / "examples" / "wmt20_zhen_incomplete.csv"
part.to_csv(target, index=False, lineterminator="\n")
print(f"{target}: {len(part)} rows, {part.system.nunique()} systems x {part.instance.nunique()} instances")

# llmfao (registry source `llmfao`, evalica's example data): every judgment between the 8 most-judged models
judgments = load_table("llmfao")
top = pd.concat([judgments.left, judgments.right]).value_counts().index[:8]
among = judgments[judgments.left.isin(top) & judgments.right.isin(top)]
pairs = pd.DataFrame({"model_a": among.left.astype(str), "model_b": among.right.astype(str),
                      "winner": among.winner.map({"left": "model_a", "right": "model_b", "tie": "tie"})})
target = ROOT / "examples" / "llmfao_judgments.csv"
pairs.to_csv(target, index=False, lineterminator="\n")
print(f"{target}: {len(pairs)} judgments between {len(top)} models")
