"""`python -m analysis compare` writes its outputs atomically (issue 43) and never over its inputs (issue 44): a failed
or interrupted run leaves every earlier output byte-identical, says so in one line and exits 2 (a failed write),
130 (Ctrl-C) or 143 (SIGTERM)."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analysis.__main__ import main
from analysis.files import WriteError, write_together

ROOT = Path(__file__).resolve().parent.parent
FAST = ["--n-resamples", "20", "--n-resamples-sequential", "2"]
WIDE = pd.DataFrame({"A": [0.1, 0.5, 0.3, 0.9, 0.4], "B": [0.2, 0.4, 0.1, 0.3, 0.5], "C": [0.0, 0.6, 0.2, 0.5, 0.1]})


def _cli(*args, limit_bytes=None, timeout=120):
    """The command in a subprocess (``limit_bytes``: RLIMIT_FSIZE, the file-size limit ``ulimit -f`` sets)."""
    import resource

    def limit():
        if limit_bytes is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))

    return subprocess.run([sys.executable, "-m", "analysis", "compare", *map(str, args)], capture_output=True,
                          text=True, cwd=ROOT, preexec_fn=limit, timeout=timeout)


def _snapshot(folder: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def _one_line(err: str, start: str = "error:") -> str:
    lines = [x for x in err.splitlines() if x.startswith(start)]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    """A score file with a complete earlier run: report.json and the --out folder."""
    folder = tmp_path_factory.mktemp("good")
    scores = folder / "scores.csv"
    WIDE.to_csv(scores, index=False)
    code = main(["compare", str(scores), "--json", str(folder / "report.json"), "--out", str(folder / "out"), *FAST])
    assert code == 0
    return folder


def _copy(good: Path, tmp_path: Path) -> Path:
    import shutil

    shutil.copytree(good, tmp_path / "run")
    return tmp_path / "run"


def test_a_file_size_limit_leaves_the_earlier_report_intact(good, tmp_path):
    """``ulimit -f 1``: the JSON is larger than 1 KiB; the earlier report.json stays byte-identical, one line,
    exit 2."""
    run = _copy(good, tmp_path)
    before = (run / "report.json").read_bytes()
    result = _cli(run / "scores.csv", "--json", run / "report.json", *FAST, "--seed", "7", limit_bytes=1024)
    assert result.returncode == 2
    line = _one_line(result.stderr)
    assert "report.json" in line and "File too large" in line
    assert (run / "report.json").read_bytes() == before
    assert not list(run.glob(".*.part"))


def test_a_file_size_limit_while_writing_figures_publishes_none_of_the_folder(good, tmp_path):
    """The --out folder's files appear together or not at all: a figure that cannot be written leaves every table
    and the JSON as they were."""
    run = _copy(good, tmp_path)
    before, json_before = _snapshot(run / "out"), (run / "report.json").read_bytes()
    result = _cli(run / "scores.csv", "--json", run / "report.json", "--out", run / "out", *FAST, "--seed", "7",
                  limit_bytes=8 * 1024)
    assert result.returncode == 2, result.stderr
    assert "File too large" in _one_line(result.stderr)
    assert _snapshot(run / "out") == before and (run / "report.json").read_bytes() == json_before
    assert not list((run / "out").glob(".*.part"))


def test_a_full_device_is_one_line():
    result = _cli(ROOT / "examples" / "topicalchat_chrfpp.csv", "--json", "/dev/full", *FAST)
    assert result.returncode == 2 and "No space left on device" in _one_line(result.stderr)
    assert Path("/dev/full").exists() and not Path("/dev/full").is_file()  # written to, never replaced


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder_is_refused_before_any_work(good, tmp_path):
    run = _copy(good, tmp_path)
    before = _snapshot(run / "out")
    os.chmod(run / "out", 0o500)
    try:
        result = _cli(run / "scores.csv", "--out", run / "out", *FAST)
    finally:
        os.chmod(run / "out", 0o700)
    assert result.returncode == 2 and "not writable" in _one_line(result.stderr)
    assert _snapshot(run / "out") == before


def test_a_read_only_file_system_path_is_one_line(good, tmp_path):
    """A write the folder check cannot foresee (here /proc, which refuses new files even to root)."""
    result = _cli(good / "scores.csv", "--json", "/proc/report.json", *FAST)
    assert result.returncode == 2
    assert "/proc" in _one_line(result.stderr)


@pytest.mark.parametrize("where", ["json", "out-table", "out-figure"])
def test_a_folder_in_the_way_is_refused_and_nothing_changes(good, tmp_path, where):
    run = _copy(good, tmp_path)
    name = {"json": "report.json", "out-table": "out/prob.csv", "out-figure": "out/pairwise.png"}[where]
    (run / name).unlink()
    (run / name).mkdir()
    before = _snapshot(run / "out")
    args = ["--json", run / "report.json"] if where == "json" else ["--out", run / "out"]
    code = main(["compare", str(run / "scores.csv"), *map(str, args), *FAST])
    assert code == 2 and _snapshot(run / "out") == before and (run / name).is_dir()


def test_sigint_during_the_bootstrap_is_one_line_and_writes_nothing(tmp_path):
    """Ctrl-C in the middle of a large bootstrap (numba kernels running): "interrupted; nothing written", exit 130,
    no traceback from a compiled kernel, and the earlier report unchanged."""
    rng = np.random.default_rng(0)
    big = tmp_path / "big.csv"
    pd.DataFrame(rng.normal(size=(20_000, 8)), columns=[f"s{i}" for i in range(8)]).to_csv(big, index=False)
    report = tmp_path / "report.json"
    report.write_text("{\"earlier\": true}\n")
    for sig, code in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
        proc = subprocess.Popen([sys.executable, "-m", "analysis", "compare", str(big), "--json", str(report),
                                 "--n-resamples", "100000", "--n-resamples-sequential", "200"],
                                cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 60
        seen = ""
        while time.time() < deadline and "estimates:" not in seen:  # the estimates done: the bootstrap is running
            seen += proc.stderr.readline()
        time.sleep(1.0)
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == code, err
        assert "Traceback" not in err and "SystemError" not in err, err
        assert err.strip().splitlines()[-1] == "compare: interrupted; nothing written"
        assert report.read_text() == "{\"earlier\": true}\n"
        assert not list(tmp_path.glob(".*.part"))


def test_write_together_renames_only_when_every_file_is_complete(tmp_path):
    (tmp_path / "a.txt").write_text("old a")
    (tmp_path / "b.txt").write_text("old b")

    def fail(path):
        raise OSError(28, "No space left on device")

    with pytest.raises(WriteError, match="b.txt: No space left"):
        write_together({tmp_path / "a.txt": lambda p: Path(p).write_text("new a"), tmp_path / "b.txt": fail})
    assert (tmp_path / "a.txt").read_text() == "old a" and (tmp_path / "b.txt").read_text() == "old b"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt"]
    write_together({tmp_path / "a.txt": lambda p: Path(p).write_text("new a"),
                    tmp_path / "b.txt": lambda p: Path(p).write_text("new b")})
    assert (tmp_path / "a.txt").read_text() == "new a" and (tmp_path / "b.txt").read_text() == "new b"


# --- inputs and outputs compared as files (issue 44: losses) ---------------------------------------------------------

def _human(tmp_path) -> Path:
    path = tmp_path / "human.csv"
    (WIDE * 2 + 0.05).to_csv(path, index=False)
    return path


@pytest.mark.parametrize("case", ["json-is-human", "out-holds-human", "json-hard-link", "json-symlink",
                                  "json-inside-out", "json-hard-link-to-human", "out-table-hard-link"])
def test_outputs_never_overwrite_inputs_or_each_other(tmp_path, capsys, case):
    scores = tmp_path / "scores.csv"
    WIDE.to_csv(scores, index=False)
    human = _human(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    args = ["--human", human]
    if case == "json-is-human":
        args += ["--json", human]
    elif case == "out-holds-human":
        os.replace(human, out / "prob.csv")
        human = out / "prob.csv"
        args = ["--human", human, "--out", out]
    elif case == "json-hard-link":
        os.link(scores, tmp_path / "link.json")
        args += ["--json", tmp_path / "link.json"]
    elif case == "json-symlink":
        os.symlink(scores, tmp_path / "link.json")
        args += ["--json", tmp_path / "link.json"]
    elif case == "json-inside-out":
        args += ["--json", out / "prob.csv", "--out", out]
    elif case == "json-hard-link-to-human":
        os.link(human, tmp_path / "h.json")
        args += ["--json", tmp_path / "h.json"]
    else:
        os.link(scores, out / "systems.csv")
        args += ["--out", out]
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    code = main(["compare", str(scores), *map(str, args), *FAST])
    err = capsys.readouterr().err
    line = _one_line(err)
    assert code == 2 and ("overwrite" in line or "is the file --out writes" in line), line
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before


def test_a_good_run_writes_the_json_and_the_folder(tmp_path, capsys):
    scores = tmp_path / "scores.csv"
    WIDE.to_csv(scores, index=False)
    code = main(["compare", str(scores), "--json", str(tmp_path / "r.json"), "--out", str(tmp_path / "out"), *FAST])
    assert code == 0
    assert json.loads((tmp_path / "r.json").read_text())["settings"]["n_systems"] == 3
    assert {"systems.csv", "pairwise.png", "mechanisms.svg"} <= set(os.listdir(tmp_path / "out"))
    assert not list(tmp_path.rglob(".*.part"))
