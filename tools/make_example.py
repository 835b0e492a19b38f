"""Write the example score file shipped in examples/ (run after `make data`; the file is committed, this script
documents exactly how it was derived):

    python tools/make_example.py

It is one setup of the `paired_setups` table: BT-eval's TopicalChat dialogue data (Peyrard et al. 2021; responses
of the USR TopicalChat set, Mehri & Eskenazi 2020) scored by chrF++, as published in BT-eval's
Data/Dialogue_dataframe.pickle, in long format (instance, system, score).
"""

from analysis.data import load_table
from analysis.paths import repo_root

ROOT = repo_root()  # the checkout load_table reads from, so table and target never belong to different ones
table = load_table("paired_setups")
setup = table[(table.collection == "Dialogue") & (table.dataset == "tc") & (table.metric == "Chrfpp")]
out = setup[["instance", "system", "score"]].sort_values(["instance"], kind="stable")
target = ROOT / "examples" / "topicalchat_chrfpp.csv"
out.to_csv(target, index=False, lineterminator="\n")
print(f"{target}: {len(out)} rows, {out.system.nunique()} systems x {out.instance.nunique()} instances")
