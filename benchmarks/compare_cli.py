"""Wall time of ``python -m analysis compare`` end to end (a fresh process, as a user runs it), and of its bootstrap
against evalica's on the same matches (``python -m benchmarks.compare_cli``).

Cases: the shipped example; a synthetic 20-system x 10,000-instance long CSV; WMT20 zh-en's official segment scores
(17 systems x 2,000 segments, incomplete; when the raw data is there); 100 systems with 100,000 synthetic pairwise
judgments. Then, on those judgments, the in-process time of the comparison's BT bootstrap (1,000 resamples over
judgments, with the win rate and the P matrix) against ``evalica.bootstrap(evalica.bradley_terry, ...)`` with
1,000 percentile resamples of the same judgments, as a ratio. Nothing is asserted; the times are printed for the
README (issue 30 aims: at most 10 s for the 20 x 10,000 file and for the 100,000 judgments). Last, issue 53's
side by side on 1,000,000 judgments x 100 systems: BT + sandwich against arena-rank's compiled second call, BT
against evalica (:func:`bt_versus_peers`).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
#: filled by ``make data`` (registry source wmt20-da)
WMT20 = ROOT / ("data/raw/github/WMT-Metrics-task/wmt20-metrics/3e434fc32fd02999c885575df6167c31f60ee996/"
                "manual-evaluation/DA/ad-seg-scores-zh-en.csv")


def timed(args: list[str]) -> float:
    return measured(args)[0]


def measured(args: list[str]) -> tuple[float, float]:
    """Wall time (s) and peak resident memory (MB) of one ``compare`` run in a fresh process. The peak is the one
    GNU time reports for the command itself (a child's ``ru_maxrss`` would count the benchmark's own pages, shared
    with the child between fork and exec)."""
    if not Path("/usr/bin/time").is_file():  # Debian's package "time"
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "analysis", "compare", *args], check=True, cwd=ROOT,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return time.perf_counter() - start, float("nan")
    with tempfile.NamedTemporaryFile(suffix=".txt") as report:
        start = time.perf_counter()
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", report.name, sys.executable, "-m", "analysis", "compare",
                        *args], check=True, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        seconds = time.perf_counter() - start
        return seconds, int(Path(report.name).read_text().split()[-1]) / 1024


def judgments(n_systems: int = 100, n: int = 100_000, seed: int = 0) -> pd.DataFrame:
    """Synthetic arena judgments: random pairs, BT-distributed outcomes, 10% ties."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, n_systems, n)
    b = (a + rng.integers(1, n_systems, n)) % n_systems
    skill = rng.normal(0, 1, n_systems)
    left_wins = rng.random(n) < 1 / (1 + np.exp(skill[b] - skill[a]))
    winner = np.where(rng.random(n) < 0.1, "tie", np.where(left_wins, "model_a", "model_b"))
    names = np.array([f"model-{k:03d}" for k in range(n_systems)])
    out = pd.DataFrame({"model_a": names[a], "model_b": names[b], "winner": winner})
    out.attrs["skill"] = pd.Series(skill, index=names)
    return out


def estimand(skill: pd.Series, ties: float = 0.1) -> pd.Series:
    """The strengths BT with ties as half a win estimates from :func:`judgments`' model: with probability ``ties`` a
    tie (½ each), else a BT draw, so a system's expected credit against another is ties/2 + (1 − ties)·p, a shrunk
    version of the generating model. Fitted to the expected win matrix (every ordered pair equally often)."""
    from analysis import bt

    theta = skill.to_numpy()
    p = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))
    wins = ties / 2 + (1 - ties) * p
    np.fill_diagonal(wins, 0)
    fit = bt.fit(wins, tol=1e-14, max_iter=100_000)
    return pd.Series(fit.strengths[0], index=skill.index)


def leaderboard(tmp: Path, n_systems: int = 250, n: int = 3_000_000) -> None:
    """Issue 41's scale case: arena-style judgments from a known BT model, compared with the default intervals (BT's
    sandwich at this size) and with 1,000 percentile resamples; how often the true strength and rank fall in the
    95% intervals; evalica's BT fit of the same judgments side by side."""
    import json

    import evalica

    games = judgments(n_systems, n, seed=1)
    path = tmp / "leaderboard.csv"
    games.to_csv(path, index=False)
    skill = games.attrs["skill"]
    true_pi = estimand(skill)
    true_rank = (-skill).rank(method="min")
    for label, extra in (("sandwich (default at this size)", []),
                         ("1,000 percentile resamples", ["--interval", "percentile"])):
        out = tmp / "leaderboard.json"
        seconds, mb = measured([str(path), "--json", str(out), *extra])
        payload = json.loads(out.read_text())["systems"]
        table = pd.DataFrame(payload["data"], index=payload["index"], columns=payload["columns"])
        inside = ((table["bt_low"] <= true_pi[table.index]) & (true_pi[table.index] <= table["bt_high"])).mean()
        ranked = ((table["rank_low"] <= true_rank[table.index]) & (true_rank[table.index] <= table["rank_high"])).mean()
        print(f"{n_systems} systems, {n:,} judgments, {label}: {seconds:.1f} s, peak {mb:,.0f} MB; true strength in "
              f"its 95% BT interval for {inside:.1%} of systems, true rank in its rank interval for {ranked:.1%}",
              flush=True)
    code = {"model_a": evalica.Winner.X, "model_b": evalica.Winner.Y, "tie": evalica.Winner.Draw}
    start = time.perf_counter()
    read = pd.read_csv(path)
    evalica.bradley_terry(read["model_a"].tolist(), read["model_b"].tolist(), [code[w] for w in read["winner"]])
    theirs = time.perf_counter() - start
    print(f"evalica: read the same file and fit BT once (no intervals): {theirs:.1f} s", flush=True)


def versus_evalica(games: pd.DataFrame) -> tuple[float, float]:
    import evalica

    from analysis.compare.judgments import compare_judgments

    table = games.rename(columns={"model_a": "left", "model_b": "right"}).assign(
        winner=games["winner"].map({"model_a": "left", "model_b": "right", "tie": "tie"}), weight=1.0)
    start = time.perf_counter()
    compare_judgments(table, rng=0, n_resamples=1000, n_resamples_sequential=0, n_orders=1)
    ours = time.perf_counter() - start
    code = {"model_a": evalica.Winner.X, "model_b": evalica.Winner.Y, "tie": evalica.Winner.Draw}
    start = time.perf_counter()
    evalica.bootstrap(evalica.bradley_terry, games["model_a"].tolist(), games["model_b"].tolist(),
                      [code[w] for w in games["winner"]], n_resamples=1000, bootstrap_method="percentile",
                      random_state=0)
    return ours, time.perf_counter() - start


def bt_versus_peers(games: pd.DataFrame, repeat: int = 3) -> dict:
    """In-process, from the same DataFrame (``model_a, model_b, winner``), best of ``repeat``: (1) BT solved to
    the MLE plus arena-rank's sandwich intervals on the arena scale, as ``compare --scale elo --interval sandwich``
    computes them, against arena-rank 0.1.1's ``PairDataset.from_pandas`` + ``BradleyTerry.compute_ratings_and_cis``
    (its second call, compiled; skipped when arena-rank is not installed); (2) BT alone against
    ``evalica.bradley_terry``. Issue 53's timings; the seconds and the ratios ours/theirs."""
    import evalica

    from analysis import bt
    from analysis.compare import robust
    from analysis.compare.intervals import BT_RULE
    from analysis.compare.judgments import judgment_cells
    from analysis.comparisons import from_judgments, win_matrix

    games = games.copy()
    games.attrs = {}  # the generating skills, a Series: pandas' concat inside arena-rank cannot compare it
    side = {"model_a": "left", "model_b": "right", "tie": "tie"}

    def ours_bt():
        c = from_judgments(games["model_a"], games["model_b"], games["winner"].map(side).to_numpy(dtype=object))
        return c, bt.fit(win_matrix(c), rule=BT_RULE).strengths[0]

    def ours_sandwich():
        c, pi = ours_bt()
        cells, count, _ = judgment_cells(c)
        cov = robust.theta_cov(cells.left, cells.right, cells.outcome, cells.weight, count, pi)
        return robust.rating_intervals(robust.elo_scale(pi), cov)

    def best(fn):
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
        return min(times)

    code = {"model_a": evalica.Winner.X, "model_b": evalica.Winner.Y, "tie": evalica.Winner.Draw}
    out = {"ours_bt": best(ours_bt), "ours_bt_sandwich": best(ours_sandwich),
           "evalica_bt": best(lambda: evalica.bradley_terry(games["model_a"].tolist(), games["model_b"].tolist(),
                                                            [code[w] for w in games["winner"]]))}
    try:
        from arena_rank.models.bradley_terry import BradleyTerry
        from arena_rank.utils.data_utils import PairDataset
    except ImportError:
        return out

    def arena():
        ds = PairDataset.from_pandas(games, reweighted=False)
        return BradleyTerry(n_competitors=len(ds.competitors)).compute_ratings_and_cis(ds, significance_level=0.05)

    arena()  # compile
    out["arena_bt_sandwich"] = best(arena)
    return out


def main() -> None:
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "big.csv"
        values = rng.normal(0, 1, (10_000, 20)) + np.linspace(0, 0.2, 20)
        frame = pd.DataFrame(np.round(values, 2), columns=[f"sys{i:02d}" for i in range(20)])
        frame.rename_axis(index="instance", columns="system").stack().rename("score").reset_index().to_csv(
            big, index=False)
        arena = Path(tmp) / "arena.csv"
        games = judgments()
        games.to_csv(arena, index=False)
        million = Path(tmp) / "arena1m.csv"
        judgments(100, 1_000_000).to_csv(million, index=False)
        cases = {
            "example (5 x 60), defaults": ["examples/topicalchat_chrfpp.csv"],
            "20 x 10,000, defaults": [str(big)],
            "100 systems, 100,000 judgments, defaults": [str(arena)],
            "100 systems, 1,000,000 judgments, defaults": [str(million)],
            "100 systems, 1,000,000 judgments, 1,000 percentile resamples": [str(million), "--interval", "percentile"],
        }
        if WMT20.is_file():
            wmt = Path(tmp) / "wmt20.csv"
            seg = pd.read_csv(WMT20, sep=r"\s+")
            seg.rename(columns={"SID": "instance", "SYS": "system", "Z.SCR": "score"})[
                ["instance", "system", "score"]].to_csv(wmt, index=False)
            cases["WMT20 zh-en official segments (17 x 2,000, incomplete), defaults"] = [str(wmt)]
        timed(["examples/topicalchat_chrfpp.csv"])  # compile and cache the kernels once
        for label, args in cases.items():
            runs = [measured(args) for _ in range(2)]
            print(f"{label}: {min(r[0] for r in runs):.1f} s, peak {max(r[1] for r in runs):,.0f} MB", flush=True)
        ours, theirs = versus_evalica(games)
        print(f"BT bootstrap, 1,000 resamples of 100,000 judgments: ours {ours:.1f} s (with win rate and P matrix), "
              f"evalica {theirs:.1f} s: ratio {ours / theirs:.2f}", flush=True)
        peers = bt_versus_peers(judgments(100, 1_000_000))
        print(f"1,000,000 judgments x 100 systems, from a DataFrame: BT (MLE) ours {peers['ours_bt']:.2f} s, evalica "
              f"{peers['evalica_bt']:.2f} s: ratio {peers['ours_bt'] / peers['evalica_bt']:.2f}"
              + (f"; BT + sandwich ours {peers['ours_bt_sandwich']:.2f} s, arena-rank (compiled) "
                 f"{peers['arena_bt_sandwich']:.2f} s: ratio "
                 f"{peers['ours_bt_sandwich'] / peers['arena_bt_sandwich']:.2f}"
                 if "arena_bt_sandwich" in peers else "; arena-rank not installed"), flush=True)
        leaderboard(Path(tmp))


if __name__ == "__main__":
    main()
