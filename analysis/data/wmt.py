"""The WMT human-evaluation packages as tidy tables (``wmt_judgments``, ``wmt_segments``, ``wmt_official_*``).

The packages are the organisers' own analysis folders (files named ``ad-*``), whitespace separated, one format across
years with small variations (tabs or spaces, quoted system names, a missing leading header cell). Collections:

=========================  ====  ======  ==========================================================================
collection                 year  style   what is published
=========================  ====  ======  ==========================================================================
``newstest2018``           2018  SR-DC   worker-z per judgment (13 pairs; de-en only as segment scores), segment and
                                         system scores, rankings, Wilcoxon difference tables, clusters
``newstest2019``           2019  --      official system rankings only
``newstest2020``           2020  --      segment and system scores, Wilcoxon p-value tables
``newstest2021-toen``      2021  SR+DC   worker-z per judgment (6 pairs; zh-en only as segment scores), the rest as 2018
``wikipedia2021-fb``       2021  SR+DC   the complete Facebook-Wikipedia package: raw *and* z per judgment, all outputs
``newstest2022-toen``      2022  SR+DC   worker-z per judgment (7 pairs), the rest as 2021
=========================  ====  ======  ==========================================================================

SR-DC is segment rating without document context; SR+DC shows the whole document translated by one system, in order
(Knowles 2021, Sec. 2). The style of 2019 and 2020 is not recorded here because they hold no judgments.
"""

from __future__ import annotations

import io
import re

import numpy as np
import pandas as pd

from .raw import read_table, read_verified
from .registry import DataFile, Table, source_files

WMT_JUDGMENTS = {
    "collection": "string",
    "year": "int16",
    "pair": "string",
    "style": "string",
    "hit": "string",
    "worker": "string",
    "system": "string",
    "document": "string",
    "segment": "string",
    "item_type": "string",
    "z": "float64",
    "raw": "float64",
    "time": "float64",
}
WMT_SEGMENTS = {
    "collection": "string",
    "year": "int16",
    "pair": "string",
    "system": "string",
    "segment": "string",
    "raw": "float64",
    "z": "float64",
    "n": "int32",
}
WMT_OFFICIAL_RANKINGS = {
    "collection": "string",
    "year": "int16",
    "pair": "string",
    "rank": "int16",
    "system": "string",
    "name": "string",
    "raw": "float64",
    "z": "float64",
    "n_segments": "int32",
    "n_judgments": "int32",
}
WMT_OFFICIAL_WILCOXON = {
    "collection": "string",
    "year": "int16",
    "pair": "string",
    "table": "string",
    "system_a": "string",
    "system_b": "string",
    "diff": "float64",
    "significance": "string",
    "p_value": "float64",
}
WMT_OFFICIAL_CLUSTERS = {
    "collection": "string",
    "year": "int16",
    "pair": "string",
    "system": "string",
    "wins": "int16",
    "total": "int16",
    "cluster_start": "int16",
    "cluster_end": "int16",
    "end_of_cluster": "bool",
}
WMT20_METRIC_SCORES = {
    "metric": "string",
    "kind": "string",
    "pair": "string",
    "reference": "string",
    "system": "string",
    "score": "float64",
}
METRIC_COLUMNS = ["metric", "pair", "testset", "reference", "system", "score"]

WMT_RAW_VARIANTS = {
    "collection": "string",
    "year": "int16",
    "pair": "string",
    "variant": "string",
    "workers_listed": "int32",
    "workers_judging": "int32",
    "judgments_without_worker": "int32",
    "judgments": "int32",
    "max_distance_to_integer": "float64",
    "share_integer": "float64",
    "outside_0_100": "int32",
    "single_segments": "int32",
    "single_segments_disagreeing": "int32",
}

#: collection -> (registry source, folder inside the repository, year, style)
COLLECTIONS = {
    "newstest2018": ("wmt18-humaneval", "newstest2018-humaneval/analysis/", 2018, "SR-DC"),
    "newstest2019": ("wmt19-rankings", "human-eval/", 2019, pd.NA),
    "newstest2020": ("wmt20-da", "manual-evaluation/DA/", 2020, pd.NA),
    "newstest2021-toen": ("wmt21-humaneval", "humaneval/newstest2021-toen/", 2021, "SR+DC"),
    "wikipedia2021-fb": ("wmt21-humaneval", "humaneval/facebook-wikipedia-2021/", 2021, "SR+DC"),
    "newstest2022-toen": ("wmt22-humaneval", "humaneval/DA/newstest2022-toen/", 2022, "SR+DC"),
}

ITEM_TYPES = ("SYSTEM", "REPEAT", "REF", "BAD_REF")

JUDGMENT_COLUMNS = ["HITId", "WorkerId", "Input.src", "Input.trg", "Input.item", "hit", "sys_id", "rid", "type", "sid",
                    "score", "time"]


def _files(collection: str, pattern: str) -> list[tuple[DataFile, re.Match]]:
    """The registered files of a collection whose name (after the folder) fully matches ``pattern``."""
    source, folder, _, _ = COLLECTIONS[collection]
    found = [(f, re.fullmatch(pattern, f.path[len(folder):])) for f in source_files(source)
             if f.path.startswith(folder)]
    return sorted(((f, m) for f, m in found if m), key=lambda fm: fm[0].path)


def _pair(code: str) -> str:
    """``csen`` or ``cs-en`` -> ``cs-en``."""
    code = code.replace("-", "")
    if len(code) != 4:
        raise ValueError(f"cannot read a language pair from {code!r}")
    return f"{code[:2]}-{code[2:]}"


def _read_table(f: DataFile, root, **kwargs) -> pd.DataFrame:
    """The organisers' whitespace-separated tables."""
    return read_table(f, root, sep=r"\s+", **kwargs)


def _read_judgments(f: DataFile, root) -> pd.DataFrame:
    frame = _read_table(f, root, dtype=str, keep_default_na=False)
    if list(frame.columns) != JUDGMENT_COLUMNS:
        raise ValueError(f"{f.path}: columns {list(frame.columns)} differ from the DA format {JUDGMENT_COLUMNS}")
    bad = sorted(set(frame["type"]) - set(ITEM_TYPES))
    if bad:
        raise ValueError(f"{f.path}: unknown item types {bad}")
    return frame


def _na(values: pd.Series) -> pd.Series:
    return values.where(values != "NA", pd.NA)


# -- judgments ------------------------------------------------------------------------------------------------------


def build_judgments(root=None) -> tuple[pd.DataFrame, list[DataFile]]:
    """One row per quality-controlled DA judgment (the ``ad-<pair>-good-stnd-redup.csv`` files).

    ``z`` is the published worker-standardised score. ``raw`` is the 0-100 slider score:

    * ``wikipedia2021-fb``: from its ``ad-good-raw-redup.csv`` (same judgments in the same order, checked);
    * ``newstest2021-toen`` and ``newstest2022-toen``: raw = mean + sd * z with the worker's mean and sd from the
      organisers' ``ad-<xxen>-trk-mean-sd.txt`` (the variant *with* REF items, the one that reproduces the published
      z: every value is an integer in [0, 100] to 1e-6, checked; see :func:`raw_variants`), for every judgment;
    * ``newstest2018``: only a SYSTEM/REPEAT judgment whose (system, segment) was judged exactly once, so that the
      official segment file's RAW.SCR is its raw score (2018 publishes no per-worker mean and sd).

    Wherever a singly judged segment's RAW.SCR is known it is checked against the raw of the first two bullets.
    ``document`` is the published ``rid`` (a per-HIT document instance in 2021-2022; absent in 2018).
    """
    parts, inputs = [], []
    for collection in ("newstest2018", "newstest2021-toen", "wikipedia2021-fb", "newstest2022-toen"):
        _, _, year, style = COLLECTIONS[collection]
        raw_by_pair = {}
        if collection == "wikipedia2021-fb":
            [(raw_file, _)] = _files(collection, r"ad-good-raw-redup\.csv")
            raw = _read_judgments(raw_file, root)
            inputs.append(raw_file)
            raw_by_pair = {_pair(s + t): g for (s, t), g in raw.groupby(["Input.src", "Input.trg"], sort=False)}
        segments = {}
        for f, m in _files(collection, r"ad-seg-scores-(\w\w-\w\w)\.csv"):
            segments[m.group(1)] = _read_segments(f, root)
            inputs.append(f)
        for f, m in _files(collection, r"ad-(\w{4})-good-stnd-redup\.csv"):
            pair = _pair(m.group(1))
            frame = _read_judgments(f, root)
            inputs.append(f)
            if (frame["Input.src"] + "-" + frame["Input.trg"] != pair).any():
                raise ValueError(f"{f.path}: rows of another language pair than {pair}")
            out = pd.DataFrame({
                "collection": collection,
                "year": year,
                "pair": pair,
                "style": style,
                "hit": _na(frame["HITId"]),
                "worker": frame["WorkerId"],
                "system": frame["sys_id"],
                "document": _na(frame["rid"]),
                "segment": frame["sid"],
                "item_type": frame["type"],
                "z": frame["score"].astype(float),
                "raw": np.nan,
                "time": pd.to_numeric(frame["time"].replace("NA", np.nan)),
            })
            single = _raw_of_single_judgments(out, segments[pair]) if pair in segments else np.full(len(out), np.nan)
            mean_sd = (_files(collection, rf"ad-{m.group(1)}-trk-mean-sd\.txt") if collection != "wikipedia2021-fb"
                       else [])
            if pair in raw_by_pair:
                r = raw_by_pair[pair]
                same = ["WorkerId", "sys_id", "type", "sid"]
                if len(r) != len(frame) or not (r[same].to_numpy() == frame[same].to_numpy()).all():
                    raise ValueError(f"{raw_file.path} and {f.path} do not list the same {pair} judgments in order")
                out["raw"] = r["score"].astype(float).to_numpy()
            elif mean_sd:
                [(ms_file, _)] = mean_sd
                inputs.append(ms_file)
                values = raw_from_mean_sd(out, read_worker_mean_sd(ms_file, root))
                out["raw"] = _checked_integers(values, f"{ms_file.path} with {f.path}")
            else:
                out["raw"] = single
            known = ~np.isnan(single)
            if (out["raw"].to_numpy()[known] != single[known]).any():
                raise ValueError(f"{f.path}: raw disagrees with the segment file's RAW.SCR of singly judged segments")
            parts.append(out)
    return pd.concat(parts, ignore_index=True), inputs


def read_worker_mean_sd(f: DataFile, root=None) -> pd.DataFrame:
    """The organisers' per-worker raw mean and sd (``ad-<xxen>-trk-mean-sd[-no-refs].txt``;
    :func:`parse_worker_mean_sd`)."""
    return parse_worker_mean_sd(read_verified(f, root).decode("utf-8"), f.path)


def parse_worker_mean_sd(text: str, where: str = "mean/sd file") -> pd.DataFrame:
    """Parse R's print format, three lines per worker (``[1] "WORKER"``, ``[1] mean``, ``[1] sd``; ``NA`` for the sd
    of a one-judgment worker) into columns worker, mean, sd."""
    values = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        m = re.fullmatch(r"\[1\] (.+)", line.strip())
        if not m:
            raise ValueError(f"{where}: line {number} is not an R print line: {line!r}")
        values.append(m.group(1))
    if len(values) % 3:
        raise ValueError(f"{where}: {len(values)} values, not three per worker")
    workers = values[0::3]
    if not all(len(w) >= 2 and w.startswith('"') and w.endswith('"') for w in workers):
        raise ValueError(f"{where}: expected a quoted worker id every third line")
    try:
        mean = [float(v) if v != "NA" else np.nan for v in values[1::3]]
        sd = [float(v) if v != "NA" else np.nan for v in values[2::3]]
    except ValueError as exc:
        raise ValueError(f"{where}: a mean or sd is not a number: {exc}") from None
    frame = pd.DataFrame({"worker": [w[1:-1] for w in workers], "mean": mean, "sd": sd})
    if frame["worker"].duplicated().any():
        raise ValueError(f"{where}: a worker is listed twice")
    return frame


def raw_from_mean_sd(judgments: pd.DataFrame, mean_sd: pd.DataFrame) -> np.ndarray:
    """raw = mean + sd * z per judgment, with its worker's mean and sd (unrounded; NaN for an unlisted worker)."""
    by_worker = mean_sd.set_index("worker")
    mean = judgments["worker"].map(by_worker["mean"]).to_numpy(float)
    sd = judgments["worker"].map(by_worker["sd"]).to_numpy(float)
    return mean + sd * judgments["z"].to_numpy(float)


def _checked_integers(values: np.ndarray, what: str, tolerance: float = 1e-6) -> np.ndarray:
    rounded = np.round(values)
    bad = ~(np.abs(values - rounded) <= tolerance) | (rounded < 0) | (rounded > 100)
    if bad.any():
        raise ValueError(f"{what}: {int(bad.sum())} raw scores are not integers in [0, 100] (or the worker is missing)")
    return rounded


def raw_variants(root=None) -> tuple[pd.DataFrame, list[DataFile]]:
    """Which per-worker mean/sd variant reproduces the published z: per (collection, pair, variant), how far
    mean + sd * z lies from an integer (a DA slider score is an integer 0-100) and how many values leave [0, 100]."""
    records, inputs = [], []
    for collection in ("newstest2021-toen", "newstest2022-toen"):
        _, _, year, _ = COLLECTIONS[collection]
        segments = {m.group(1): _read_segments(f, root)
                    for f, m in _files(collection, r"ad-seg-scores-(\w\w-\w\w)\.csv")}
        inputs += [f for f, _ in _files(collection, r"ad-seg-scores-(\w\w-\w\w)\.csv")]
        for f, m in _files(collection, r"ad-(\w{4})-good-stnd-redup\.csv"):
            pair = _pair(m.group(1))
            frame = _read_judgments(f, root)
            judgments = pd.DataFrame({"worker": frame["WorkerId"], "system": frame["sys_id"], "segment": frame["sid"],
                                      "item_type": frame["type"], "z": frame["score"].astype(float)})
            inputs.append(f)
            single = _raw_of_single_judgments(judgments, segments[pair])
            for variant, suffix in (("with REF items", ""), ("without REF items", "-no-refs")):
                [(ms_file, _)] = _files(collection, rf"ad-{m.group(1)}-trk-mean-sd{suffix}\.txt")
                inputs.append(ms_file)
                mean_sd = read_worker_mean_sd(ms_file, root)
                values = raw_from_mean_sd(judgments, mean_sd)
                distance = np.abs(values - np.round(values))
                known = ~np.isnan(single)
                records.append((collection, year, pair, variant, len(mean_sd), judgments["worker"].nunique(),
                                int(np.isnan(values).sum()), len(values), float(np.nanmax(distance)),
                                float(np.mean(distance <= 1e-6)), int(((values < -1e-6) | (values > 100 + 1e-6)).sum()),
                                int(known.sum()), int((np.round(values[known]) != single[known]).sum())))
    columns = list(WMT_RAW_VARIANTS)
    return pd.DataFrame(records, columns=columns), inputs


def _raw_of_single_judgments(judgments: pd.DataFrame, segments: pd.DataFrame) -> np.ndarray:
    """RAW.SCR of the segment file for judgments that are the only SYSTEM/REPEAT judgment of their segment."""
    kept = judgments["item_type"].isin(["SYSTEM", "REPEAT"])
    key = judgments["system"] + "\t" + judgments["segment"]
    counts = key[kept].value_counts()
    single = segments[segments["n"] == 1]
    raw_of = pd.Series(single["raw"].to_numpy(), index=single["system"] + "\t" + single["segment"])
    raw_of = raw_of[~raw_of.index.duplicated(keep=False)]
    eligible = kept & key.map(counts).eq(1)
    return np.where(eligible, key.map(raw_of).astype(float), np.nan)


# -- segment scores -------------------------------------------------------------------------------------------------


def _read_segments(f: DataFile, root) -> pd.DataFrame:
    frame = _read_table(f, root, dtype={"SYS": str, "SID": str})
    if list(frame.columns) != ["SYS", "SID", "RAW.SCR", "Z.SCR", "N"]:
        raise ValueError(f"{f.path}: columns {list(frame.columns)} differ from SYS SID RAW.SCR Z.SCR N")
    return pd.DataFrame({"system": frame["SYS"], "segment": frame["SID"], "raw": frame["RAW.SCR"].astype(float),
                         "z": frame["Z.SCR"].astype(float), "n": frame["N"].astype(int)})


def build_segments(root=None) -> tuple[pd.DataFrame, list[DataFile]]:
    """Official segment scores: the mean raw and z of each (system, segment) over its SYSTEM/REPEAT judgments."""
    parts, inputs = [], []
    for collection in ("newstest2018", "newstest2020", "newstest2021-toen", "wikipedia2021-fb", "newstest2022-toen"):
        _, _, year, _ = COLLECTIONS[collection]
        for f, m in _files(collection, r"ad-seg-scores-(\w\w-\w\w)\.csv"):
            seg = _read_segments(f, root)
            seg.insert(0, "pair", m.group(1))
            seg.insert(0, "year", year)
            seg.insert(0, "collection", collection)
            parts.append(seg)
            inputs.append(f)
    return pd.concat(parts, ignore_index=True), inputs


# -- official system rankings ---------------------------------------------------------------------------------------


def _read_system_scores(f: DataFile, root) -> pd.DataFrame:
    frame = _read_table(f, root, dtype={"SYS": str})
    if list(frame.columns) != ["RAW.SCR", "Z.SCR", "N", "SYS", "N.ALL"]:
        raise ValueError(f"{f.path}: columns {list(frame.columns)} differ from RAW.SCR Z.SCR N SYS N.ALL")
    return frame.set_index("SYS")


def build_rankings(root=None) -> tuple[pd.DataFrame, list[DataFile]]:
    """Official system rankings: rank (1 = best, file order), raw and z, segments and judgments counted.

    Where a collection also publishes ``ad-sys-scores-*`` (all but 2019), raw and z are taken from it at full
    precision and checked against the ranking file's rounded values (z to 3 decimals, raw to 1). 2020 publishes no
    ranking file: its rank is the order of z. ``name`` is the published display name where there is one.
    """
    parts, inputs = [], []
    for collection, (_, _, year, _) in COLLECTIONS.items():
        scores = {m.group(1): (f, _read_system_scores(f, root))
                  for f, m in _files(collection, r"ad-sys-scores-(\w\w-\w\w)\.csv")}
        rankings = _files(collection, r"ad-sys-ranking-(\w\w-\w\w)-z(-names)?\.csv")
        if rankings:
            for f, m in rankings:
                pair, named = m.group(1), bool(m.group(2))
                cols = ["raw", "z", "n_segments", "n_judgments", "system"] + (["name"] if named else [])
                frame = _read_table(f, root, header=None, names=cols, dtype={"system": str})
                if frame.isna().any().any():
                    raise ValueError(f"{f.path}: expected {len(cols)} columns on every line")
                inputs.append(f)
                if pair in scores:
                    sf, full = scores[pair]
                    inputs.append(sf)
                    if set(full.index) != set(frame["system"]):
                        raise ValueError(f"{f.path} and {sf.path} list different systems")
                    exact = full.loc[frame["system"]]
                    if (np.abs(exact["Z.SCR"].to_numpy() - frame["z"]) > 0.0005 + 1e-9).any():
                        raise ValueError(f"{f.path}: rounded z disagrees with {sf.path}")
                    if (np.abs(exact["RAW.SCR"].to_numpy() - frame["raw"]) > 0.05 + 1e-9).any():
                        raise ValueError(f"{f.path}: rounded raw disagrees with {sf.path}")
                    frame["raw"] = exact["RAW.SCR"].to_numpy()
                    frame["z"] = exact["Z.SCR"].to_numpy()
                parts.append(_ranking_rows(collection, year, pair, frame))
        else:
            for pair, (sf, full) in scores.items():
                inputs.append(sf)
                frame = full.reset_index().rename(columns={"SYS": "system", "RAW.SCR": "raw", "Z.SCR": "z",
                                                           "N": "n_segments", "N.ALL": "n_judgments"})
                frame = frame.sort_values("z", ascending=False, kind="stable")
                parts.append(_ranking_rows(collection, year, pair, frame))
    return pd.concat(parts, ignore_index=True), inputs


def _ranking_rows(collection, year, pair, frame) -> pd.DataFrame:
    return pd.DataFrame({
        "collection": collection, "year": year, "pair": pair, "rank": np.arange(1, len(frame) + 1),
        "system": frame["system"].to_numpy(), "name": frame["name"].to_numpy() if "name" in frame else pd.NA,
        "raw": frame["raw"].to_numpy(float), "z": frame["z"].to_numpy(float),
        "n_segments": frame["n_segments"].to_numpy(int), "n_judgments": frame["n_judgments"].to_numpy(int),
    })


# -- official significance tables and clusters ---------------------------------------------------------------------


def _read_square(f: DataFile, root) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """A published system x system matrix: a header of column systems, then ``row value...`` lines ('-' = diagonal)."""
    lines = [line.split() for line in read_verified(f, root).decode("utf-8").splitlines() if line.strip()]
    columns, rows = lines[0], [(line[0], line[1:]) for line in lines[1:]]
    for name, values in rows:
        if len(values) != len(columns):
            raise ValueError(f"{f.path}: row {name} has {len(values)} values for {len(columns)} columns")
    if [name for name, _ in rows] != columns:
        raise ValueError(f"{f.path}: rows and columns list different systems")
    return columns, rows


def build_wilcoxon(root=None) -> tuple[pd.DataFrame, list[DataFile]]:
    """Official pairwise significance tables, one row per ordered (row system, column system) pair.

    ``ad-DA-diff-wilcoxon-rs-*`` (2018, 2021, 2022, Facebook) give the z difference row - column with stars for the
    one-sided Wilcoxon rank-sum level at which the row system is better (``*`` p < .05, ``**`` < .01, ``***`` < .001);
    ``adwilcox-*`` (2020, Facebook) give the p-value of the row system being better than the column system, where
    the organisers' scripts print 0.12 for "not computed / not significant" and on the diagonal; kept as published.
    """
    parts, inputs = [], []
    for collection, (_, _, year, _) in COLLECTIONS.items():
        for pattern, kind in ((r"ad-DA-diff-wilcoxon-rs-(\w{4})\.csv", "diff"), (r"adwilcox-(\w{4})\.csv", "p")):
            for f, m in _files(collection, pattern):
                columns, rows = _read_square(f, root)
                inputs.append(f)
                records = []
                for a, values in rows:
                    for b, value in zip(columns, values):
                        if a == b:
                            continue
                        if kind == "diff":
                            number, stars = re.fullmatch(r"(-?[0-9.e+-]+)(\**)", value).groups()
                            records.append((a, b, float(number), stars, np.nan))
                        else:
                            records.append((a, b, np.nan, pd.NA, float(value)))
                frame = pd.DataFrame(records, columns=["system_a", "system_b", "diff", "significance", "p_value"])
                frame.insert(0, "pair", _pair(m.group(1)))
                frame.insert(0, "year", year)
                frame.insert(0, "collection", collection)
                frame.insert(3, "table", "wilcoxon-diff" if kind == "diff" else "wilcoxon-p")
                parts.append(frame)
    return pd.concat(parts, ignore_index=True), inputs


def build_clusters(root=None) -> tuple[pd.DataFrame, list[DataFile]]:
    """Official significance clusters (``clusters.csv``: 2018 and Facebook-Wikipedia 2021), in published order."""
    parts, inputs = [], []
    for collection, (_, _, year, _) in COLLECTIONS.items():
        for f, _ in _files(collection, r"clusters\.csv"):
            frame = _read_table(f, root, dtype={"SYSTEM": str, "SRC": str, "TRG": str})
            expected = ["SRC", "TRG", "WINS", "TOTAL", "CLUSTER_START", "CLUSTER_END", "END_OF_CLUSTER", "SYSTEM"]
            if list(frame.columns) != expected:
                raise ValueError(f"{f.path}: columns {list(frame.columns)} differ from {expected}")
            inputs.append(f)
            parts.append(pd.DataFrame({
                "collection": collection, "year": year, "pair": frame["SRC"] + "-" + frame["TRG"],
                "system": frame["SYSTEM"], "wins": frame["WINS"], "total": frame["TOTAL"],
                "cluster_start": frame["CLUSTER_START"], "cluster_end": frame["CLUSTER_END"],
                "end_of_cluster": frame["END_OF_CLUSTER"].astype(bool),
            }))
    return pd.concat(parts, ignore_index=True), inputs


def build_metric_scores(root=None) -> tuple[pd.DataFrame, list[DataFile]]:
    """The WMT20 metrics task's system-level scores (``final-metric-scores/{baselines,submissions}``, tab separated:
    metric, pair, test set, reference, system, score; gzip-compressed as published) on newstest2020, one row per
    (metric, pair, reference, system). ``kind``: baseline or submission."""
    import gzip

    parts, inputs = [], []
    for f in source_files("wmt20-metric-scores", r"\.sys\.score\.gz$"):
        text = gzip.decompress(read_verified(f, root)).decode("utf-8")
        frame = pd.read_csv(io.StringIO(text), sep="\t", header=None, names=METRIC_COLUMNS, dtype=str,
                            keep_default_na=False)
        if frame.empty or frame["score"].eq("").any():
            raise ValueError(f"{f.path}: empty file or a row without a score")
        frame = frame[frame["testset"] == "newstest2020"]
        inputs.append(f)
        parts.append(pd.DataFrame({
            "metric": frame["metric"], "kind": "baseline" if "/baselines/" in f.path else "submission",
            "pair": frame["pair"], "reference": frame["reference"], "system": frame["system"],
            "score": pd.to_numeric(frame["score"], errors="raise")}))
    out = pd.concat(parts, ignore_index=True)
    dup = out.duplicated(["metric", "pair", "reference", "system"])
    if dup.any():
        raise ValueError(f"{int(dup.sum())} repeated (metric, pair, reference, system) rows, e.g. "
                         f"{out[dup].iloc[0].to_dict()}")
    return out.sort_values(["metric", "pair", "reference", "system"], ignore_index=True), inputs


TABLES = (
    Table("wmt_judgments", WMT_JUDGMENTS, (
        ("wmt18-humaneval", r"good-stnd-redup|ad-seg-scores"),
        ("wmt21-humaneval", r"good-stnd-redup|ad-good-raw-redup|ad-seg-scores|trk-mean-sd\.txt"),
        ("wmt22-humaneval", r"good-stnd-redup|ad-seg-scores|trk-mean-sd\.txt"),
    ), build_judgments),
    Table("wmt_raw_variants", WMT_RAW_VARIANTS, (
        ("wmt21-humaneval", r"newstest2021-toen/.*(good-stnd-redup|ad-seg-scores|trk-mean-sd)"),
        ("wmt22-humaneval", r"good-stnd-redup|ad-seg-scores|trk-mean-sd"),
    ), raw_variants),
    Table("wmt_segments", WMT_SEGMENTS, tuple(
        (s, r"ad-seg-scores") for s in ("wmt18-humaneval", "wmt20-da", "wmt21-humaneval", "wmt22-humaneval")
    ), build_segments),
    Table("wmt_official_rankings", WMT_OFFICIAL_RANKINGS, (
        ("wmt18-humaneval", r"ad-sys-"), "wmt19-rankings", ("wmt20-da", r"ad-sys-scores"),
        ("wmt21-humaneval", r"ad-sys-"), ("wmt22-humaneval", r"ad-sys-"),
    ), build_rankings),
    Table("wmt_official_wilcoxon", WMT_OFFICIAL_WILCOXON, tuple(
        (s, r"wilcoxon|adwilcox") for s in ("wmt18-humaneval", "wmt20-da", "wmt21-humaneval", "wmt22-humaneval")
    ), build_wilcoxon),
    Table("wmt_official_clusters", WMT_OFFICIAL_CLUSTERS,
          (("wmt18-humaneval", r"clusters"), ("wmt21-humaneval", r"clusters")), build_clusters),
    Table("wmt20_metric_scores", WMT20_METRIC_SCORES, ("wmt20-metric-scores",), build_metric_scores),
)
