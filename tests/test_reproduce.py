"""The papermill batch runner: discovery, profiles, failure isolation, the console, timeouts, interrupts, the
output root it refuses, notebook smoke runs and determinism. (The manifest and the outputs checked against it:
test_reproduce_manifest.py; journalled publishing: test_reproduce_journal.py.)"""

import errno
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import jupytext
import pandas as pd
import pytest

from analysis import execution, paths, profiles, reproduce
from analysis.manifest import chapter_files, read_manifest
from analysis.output_checks import verify_outputs

from . import reproduce_helpers
from .reproduce_helpers import CHAPTERS, NOTEBOOK, ROOT, break_late, cli

toy_chapters, book = reproduce_helpers.toy_chapters, reproduce_helpers.book  # the fixtures this module uses


def test_every_chapter_has_a_tagged_parameters_cell_and_kernelspec():
    assert CHAPTERS, "no chapter notebooks found"
    for chapter in CHAPTERS:
        nb = jupytext.read(ROOT / "notebooks" / f"{chapter}.py")
        assert nb.metadata["kernelspec"]["name"] == "python3", chapter
        tagged = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
        assert len(tagged) == 1, f"{chapter}: needs exactly one cell tagged 'parameters'"
        assert "seed" in tagged[0].source and "output_root" in tagged[0].source


def test_code_is_hidden_behind_a_toggle_except_where_copying_is_the_point():
    import nbformat

    from analysis.notebooks import hide_code

    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# t"), nbformat.v4.new_code_cell("x = 1"),
        nbformat.v4.new_code_cell("y = 2", metadata={"tags": ["remove-input"]}),
        nbformat.v4.new_code_cell("z = 3", metadata={"tags": ["show-input", "parameters"]})])
    assert hide_code(nb) == 1
    assert [c.metadata.get("tags") for c in nb.cells] == [None, ["hide-input"], ["remove-input"],
                                                          ["show-input", "parameters"]]
    assert hide_code(nb) == 0  # idempotent
    shown = [c for c in CHAPTERS if execution._shows_code(c)]
    assert shown == ["09_your_own_scores"]


def test_papermill_parses_every_parameter_line(caplog):
    """papermill reads the parameters cell line by line for `--help-notebook` and its records; a comment holding
    " = " (or an unbalanced quote) makes it log "Unable to parse line" and drop that parameter from what it shows."""
    from papermill.inspection import _infer_parameters

    for chapter in CHAPTERS:
        nb = jupytext.read(ROOT / "notebooks" / f"{chapter}.py")
        for cell in nb.cells:
            cell.metadata.setdefault("tags", [])
        caplog.clear()
        with caplog.at_level("WARNING", logger="papermill"):
            names = [p.name for p in _infer_parameters(nb)]
        assert not [r.message for r in caplog.records if "Unable to parse" in r.message], chapter
        assert "seed" in names and "output_root" in names, (chapter, names)


def test_profiles_only_name_existing_chapters_and_parameters():
    for profile, chapters in profiles.PROFILES.items():
        for chapter, params in chapters.items():
            assert chapter in CHAPTERS, f"profile {profile} names unknown chapter {chapter}"
            source = (ROOT / "notebooks" / f"{chapter}.py").read_text()
            for name in params:
                assert f"\n{name} = " in source, f"{chapter} has no parameter {name}"
    with pytest.raises(ValueError, match="unknown profile"):
        profiles.parameters_for("fast", CHAPTERS[0])


def test_discover_selects_by_name_number_or_suffix(toy_chapters):
    assert reproduce.discover() == ["01_good", "02_broken", "03_untagged"]
    assert reproduce.discover(["02"]) == ["02_broken"]
    assert reproduce.discover(["good", "01_good"]) == ["01_good"]
    with pytest.raises(ValueError, match="no chapter matches 'nope'"):
        reproduce.discover(["nope"])


def test_failures_are_isolated_and_reported(toy_chapters):
    out = toy_chapters / "out"
    runs = reproduce.run(profile="quick", output_root=str(out))
    status = {r.chapter: r for r in runs}
    assert status["01_good"].status == "ok"
    assert status["02_broken"].status == "failed" and "boom in chapter" in status["02_broken"].error
    assert status["03_untagged"].status == "failed" and "no cell tagged 'parameters'" in status["03_untagged"].error
    assert (out / "notebooks" / "01_good.ipynb").exists()
    assert not (out / "notebooks" / "02_broken.ipynb").exists()
    assert (out / "failed" / "02_broken.ipynb").exists()
    assert pd.read_csv(out / "01_good" / "result.csv")["value"].tolist() == [3]  # the profile was injected
    manifest = json.loads((out / "manifest.json").read_text())
    entry = {c["chapter"]: c for c in manifest["chapters"]}["01_good"]
    assert entry["parameters"]["value"] == 3 and entry["seed"] == 1 and entry["profile"] == "quick"
    assert "01_good/result.csv" in entry["outputs"] and entry["duration_s"] > 0
    assert "notebooks/01_good.ipynb" in entry["outputs"]
    assert not list((out / "notebooks").glob(".*"))  # no temporary files left behind
    assert not any((out / ".staging").iterdir())



# -- issue 12, items 1 and 2: outputs change all at once or not at all; hand runs never write into the book ---------

def test_a_failing_chapter_keeps_its_last_good_outputs(toy_chapters):
    out = toy_chapters / "out"
    assert reproduce.run(profile="quick", only=["01"], output_root=str(out))[0].status == "ok"
    before = chapter_files(out, "01_good")
    break_late(toy_chapters)
    assert reproduce.run(profile="full", only=["01"], output_root=str(out))[0].status == "failed"
    assert chapter_files(out, "01_good") == before
    assert pd.read_csv(out / "01_good" / "result.csv")["value"].tolist() == [3]  # the good quick run's, not 10
    entry = read_manifest(out)["01_good"]
    assert entry["status"] == "ok" and entry["profile"] == "quick" and entry["outputs"] == before
    assert "RuntimeError: late failure" in entry["last_failure"]["error"]
    assert (out / "failed" / "01_good.ipynb").exists()
    assert verify_outputs(out, ["01_good"]) == {"01_good": []}


def test_an_interrupted_run_changes_nothing_and_its_leftovers_are_removed(toy_chapters, monkeypatch):
    import papermill

    out = toy_chapters / "out"
    reproduce.run(profile="quick", only=["01"], output_root=str(out))
    before = chapter_files(out, "01_good")
    manifest = (out / "manifest.json").read_bytes()

    def interrupted(input_path, output_path, **kwargs):  # Ctrl-C after the notebook wrote half its outputs
        stage = Path(kwargs["parameters"]["output_root"]) / "01_good"
        stage.mkdir(parents=True)
        (stage / "result.csv").write_text("value\n99\n")
        raise KeyboardInterrupt

    monkeypatch.setattr(papermill, "execute_notebook", interrupted)
    with pytest.raises(KeyboardInterrupt):
        reproduce.run_chapter("01_good", "full", str(out))
    assert chapter_files(out, "01_good") == before
    assert (out / "manifest.json").read_bytes() == manifest
    assert not any((out / ".staging").iterdir())
    # a run killed outright (kill -9) leaves its staging folder; the next run removes it
    dead = int(subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                              text=True).stdout)
    killed = out / ".staging" / f"01_good.{dead}.x1y2z3" / "01_good"
    killed.mkdir(parents=True)
    (killed / "result.csv").write_text("value\n99\n")
    monkeypatch.undo()
    reproduce.run(profile="quick", only=["01"], output_root=str(out))
    assert not any((out / ".staging").iterdir())


def test_the_console_names_the_exception_and_its_message(toy_chapters):
    stream = io.StringIO()
    reproduce.run(profile="quick", only=["02"], output_root=str(toy_chapters / "out"), stream=stream)
    lines = stream.getvalue().splitlines()
    failed = next(i for i, line in enumerate(lines) if "FAILED 02_broken" in line)
    assert lines[failed + 1].strip().startswith("RuntimeError: boom in chapter")
    assert "failed/02_broken.ipynb" in lines[failed + 2]


def test_a_notebook_run_by_hand_writes_to_scratch_never_into_the_book(toy_chapters):
    """The README's example (papermill ... -p seed 7) used to rewrite book/_generated behind the manifest's back."""
    import nbformat

    nbformat.write(jupytext.read(toy_chapters / "notebooks" / "01_good.py"), toy_chapters / "in.ipynb")
    env = os.environ | {"ANALYSIS_ROOT": str(toy_chapters)}
    papermill = Path(sys.executable).with_name("papermill")
    subprocess.run([str(papermill), "in.ipynb", "out.ipynb", "-p", "value", "7", "--log-level", "ERROR"],
                   cwd=toy_chapters, env=env, check=True, capture_output=True)
    assert pd.read_csv(toy_chapters / "scratch" / "01_good" / "result.csv")["value"].tolist() == [7]
    assert not (toy_chapters / "book").exists()


def test_cli_exits_non_zero_naming_the_failed_chapter(toy_chapters, capsys):
    from analysis.__main__ import main

    out = str(toy_chapters / "cli-out")  # never the real book/_generated (its manifest would be overwritten)
    assert main(["reproduce", "--profile", "quick", "--only", "02", "--output-root", out]) == 1
    assert "failed: 02_broken" in capsys.readouterr().err


def test_cli_rejects_unknown_profile():
    result = subprocess.run(
        [sys.executable, "-m", "analysis", "reproduce", "--profile", "fast"], capture_output=True, text=True, cwd=ROOT
    )
    assert result.returncode == 2 and "invalid choice: 'fast'" in result.stderr


def test_repo_root_is_found_from_a_subdirectory(monkeypatch):
    monkeypatch.delenv("ANALYSIS_ROOT", raising=False)
    monkeypatch.chdir(ROOT / "tests")
    assert paths.repo_root() == ROOT


def test_a_real_chapter_refuses_a_bad_parameter_before_any_work(tmp_path, monkeypatch):
    """Issue 12 item 3: ``-p seed 7.5`` used to fail deep in numpy; now the first cell names the parameter."""
    import nbformat
    import papermill

    nbformat.write(jupytext.read(ROOT / "notebooks" / "00_why_pairing_matters.py"), tmp_path / "in.ipynb")
    with pytest.raises(papermill.PapermillExecutionError) as failure:
        papermill.execute_notebook(tmp_path / "in.ipynb", tmp_path / "run.ipynb",
                                   parameters={"seed": 7.5, "output_root": str(tmp_path / "out")},
                                   cwd=str(ROOT / "notebooks"), progress_bar=False, kernel_name="python3")
    assert failure.value.ename == "ValueError"
    assert failure.value.evalue == "parameter seed must be an integer >= 0, got 7.5"
    assert not (tmp_path / "out").exists()


# -- issue 31, item 6: every byte a chapter writes through Outputs is the same under any hash seed -------------------

SAVE_TWICE = """
import sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd
from analysis.recorder import Outputs
out = Outputs("99_toy", {"seed": 3, "systems": {"b", "a", "c", "d", "e"}, "grid": frozenset({"x", "y", "z"}),
                         "nested": {"k": {"q", "r", "s"}, 2: ("t", "u")}}, root=sys.argv[1],
              data={"raw/x.csv": "abc", "sources": {"u", "v", "w"}})
fig, ax = plt.subplots()
for name in ["alpha", "beta", "gamma"]:
    ax.plot([1, 2, 3], [1, len(name), 2], marker="o", label=name)
ax.legend()
out.figure(fig, "fig")  # no set_theme(): the SVG ids' salt must still be fixed
out.table(pd.DataFrame({"v": [1, 2]}, index=["a", "b"]), "t")
"""


def test_saved_figures_tables_and_provenance_are_byte_identical_under_two_hash_seeds(tmp_path):
    """Provenance listed sets in hash order (json's ``default=str``) and an SVG saved without :func:`set_theme` got
    matplotlib's random id salt; chapter 04's SVGs, a PNG and provenance.json differed between hash seeds."""
    script = tmp_path / "save.py"
    script.write_text(SAVE_TWICE)
    runs = {}
    for seed in ("1", "2"):
        env = os.environ | {"PYTHONHASHSEED": seed, "ANALYSIS_ROOT": str(ROOT), "PYTHONPATH": str(ROOT)}
        subprocess.run([sys.executable, str(script), str(tmp_path / seed)], env=env, check=True, cwd=tmp_path)
        folder = tmp_path / seed / "99_toy"
        runs[seed] = {p.name: p.read_bytes() for p in sorted(folder.iterdir())}
    assert sorted(runs["1"]) == ["fig.png", "fig.svg", "provenance.json", "t.csv"]
    for name in runs["1"]:
        assert runs["1"][name] == runs["2"][name], f"{name} depends on the hash seed"
    record = json.loads(runs["1"]["provenance.json"])["artefacts"]["fig"]
    assert record["parameters"]["systems"] == ["a", "b", "c", "d", "e"]
    assert record["parameters"]["nested"] == {"2": ["t", "u"], "k": ["q", "r", "s"]}
    assert record["data"]["sources"] == ["u", "v", "w"]


def test_runner_inputs_that_point_nowhere_end_in_one_line(book, capsys):
    """Item 5: ``--output-root`` pointing nowhere, and a notebook without a parameters tag (``outputs verify`` named
    a failed notebook that does not exist)."""
    assert cli("outputs", "verify", "--output-root", str(book.parent / "nowhere")) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "does not exist (no run has written there)" in err[0]
    (book.parent / "a-file").write_text("x")
    with pytest.raises(SystemExit) as usage:
        cli("reproduce", "--profile", "quick", "--output-root", str(book.parent / "a-file" / "out"))
    assert usage.value.code == 2 and "cannot use the output root" in capsys.readouterr().err



# -- hostile cases: a stuck chapter, a profile's typo, an output root the runner cannot use, Ctrl-C ------------------

def test_a_chapter_over_its_time_limit_is_stopped_and_keeps_its_last_good_outputs(toy_chapters):
    """There was no limit: a stuck chapter held the run (and the book's outputs) forever."""
    out = toy_chapters / "out"
    assert reproduce.run(profile="quick", only=["01"], output_root=str(out))[0].status == "ok"
    before = chapter_files(out, "01_good")
    nb = toy_chapters / "notebooks" / "01_good.py"
    nb.write_text(nb.read_text() + "\nimport time\ntime.sleep(120)\n")  # stuck after saving a new table
    stream = io.StringIO()
    start = time.monotonic()
    [run] = reproduce.run(profile="quick", only=["01"], output_root=str(out), timeout=2, stream=stream)
    assert time.monotonic() - start < 60
    assert run.status == "failed"
    assert run.error.startswith("TimeoutError: the chapter ran longer than its time limit of 2 s (--timeout)")
    assert chapter_files(out, "01_good") == before
    entry = read_manifest(out)["01_good"]
    assert entry["outputs"] == before and "time limit of 2 s" in entry["last_failure"]["error"]
    assert (out / "failed" / "01_good.ipynb").exists() and not any((out / ".staging").iterdir())
    assert "at most 2 s each" in stream.getvalue()


@pytest.mark.parametrize("timeout", [0, -1.0, float("nan"), float("inf"), True, "5"])
def test_a_timeout_that_is_not_a_positive_number_of_seconds_is_refused(toy_chapters, timeout):
    with pytest.raises(ValueError, match="timeout must be a number of seconds > 0"):
        reproduce.run(only=["01"], output_root=str(toy_chapters / "out"), timeout=timeout)
    assert not (toy_chapters / "out").exists()


def test_the_cli_passes_its_timeout_and_refuses_a_bad_one(toy_chapters, monkeypatch, capsys):
    seen = {}
    monkeypatch.setattr(reproduce, "run", lambda **kwargs: seen.update(kwargs) or [])
    assert cli("reproduce", "--only", "01", "--timeout", "90.5") == 0 and seen["timeout"] == 90.5
    monkeypatch.undo()
    with pytest.raises(SystemExit) as usage:
        cli("reproduce", "--only", "01", "--timeout", "0", "--output-root", str(toy_chapters / "out"))
    assert usage.value.code == 2 and "timeout must be a number of seconds > 0, got 0.0" in capsys.readouterr().err


def test_a_profile_parameter_the_notebook_does_not_declare_is_refused_before_any_chapter_runs(toy_chapters, monkeypatch,
                                                                                              capsys):
    """A typo in a profile (``valeu`` for ``value``) ran the chapter with the notebook's default; papermill only
    logged a warning."""
    monkeypatch.setitem(profiles.PROFILES, "quick", {"01_good": {"valeu": 3}})
    out = toy_chapters / "out"
    message = ("profile 'quick' sets valeu for 01_good, which its notebook does not declare; "
               "notebooks/01_good.py's parameters: seed, value, output_root")
    with pytest.raises(ValueError) as refused:
        reproduce.run(profile="quick", output_root=str(out))
    assert str(refused.value) == message and not out.exists()  # nothing ran, nothing was written
    with pytest.raises(SystemExit) as usage:
        cli("reproduce", "--profile", "quick", "--output-root", str(out))
    err = capsys.readouterr().err.strip().splitlines()
    assert usage.value.code == 2 and err[-1] == f"python -m analysis: error: {message}"
    [run] = [reproduce.run_chapter("01_good", "quick", str(out))]  # run alone, the chapter fails with that line
    assert run.status == "failed" and run.error.splitlines()[0] == f"ValueError: {message}"


def _read_only(root: Path, monkeypatch):
    """Make ``root``'s own entries impossible to create, rename or remove, as ``chmod a-w`` does; returns the undo.
    Root ignores permissions (CI containers run the tests as root), so for root the same refusal is raised by the os
    calls that would change ``root``'s entries."""
    if os.geteuid() != 0:
        root.chmod(0o555)
        return lambda: root.chmod(0o755)

    def refused(path) -> bool:
        return isinstance(path, str | os.PathLike) and Path(path).parent == root

    def guard(name, changes):
        real = getattr(os, name)

        def call(*args, **kwargs):
            if kwargs.get("dir_fd") is None and changes(*args):
                raise PermissionError(errno.EACCES, "Permission denied", str(args[0]))
            return real(*args, **kwargs)
        monkeypatch.setattr(os, name, call)

    guard("open", lambda path, flags, *_: flags & os.O_CREAT and refused(path) and not os.path.exists(path))
    guard("mkdir", lambda path, *_: refused(path) and not os.path.exists(path))
    for name in ("rename", "replace"):
        guard(name, lambda src, dst, *_: refused(src) or refused(dst))
    for name in ("unlink", "rmdir", "remove"):
        guard(name, lambda path, *_: refused(path))
    return lambda: None


@pytest.mark.parametrize("case, expected", [
    ("read-only root", "cannot write in the output root {root}: Permission denied"),
    (".staging is a file", "{root}/.staging is not a folder: the runner stages each chapter's outputs there"),
    (".manifest.lock is a folder", "{root}/.manifest.lock is a folder, not the runner's lock file"),
])
def test_an_output_root_the_runner_cannot_use_is_one_line_and_changes_nothing(book, monkeypatch, capsys, request,
                                                                               case, expected):
    """A file in place of .staging failed every chapter with a runner traceback; a folder in place of the lock file
    ended in an IsADirectoryError traceback; a read-only root ran every chapter before failing on each."""
    reproduce.run(profile="quick", output_root=str(book))
    before = {c: chapter_files(book, c) for c in ("01_good", "09_last")}
    manifest = (book / "manifest.json").read_bytes()
    if case == ".staging is a file":
        (book / ".staging").rmdir()
        (book / ".staging").write_text("not a folder")
    elif case == ".manifest.lock is a folder":
        (book / ".manifest.lock").unlink()
        (book / ".manifest.lock").mkdir()
    else:
        request.addfinalizer(_read_only(book, monkeypatch))
    capsys.readouterr()
    assert cli("reproduce", "--profile", "quick", "--output-root", str(book)) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("reproduce: error: ") and expected.format(root=book) in err[0], err
    assert {c: chapter_files(book, c) for c in before} == before and (book / "manifest.json").read_bytes() == manifest
    if case == ".manifest.lock is a folder":  # the other command that takes the lock says the same in one line
        assert cli("outputs", "prune", "--output-root", str(book)) == 1
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and expected.format(root=book) in err[0]


def _as_a_user_who_cannot_write() -> list[str]:
    """The command prefix that runs a program without root's power over permissions: none for a user; for root, a
    user namespace (``unshare --user``: the same uid, without CAP_DAC_OVERRIDE on the machine's files)."""
    if os.geteuid() != 0:
        return []
    if not shutil.which("unshare") or subprocess.run(["unshare", "--user", "true"], capture_output=True).returncode:
        pytest.skip("running as root without user namespaces: permissions cannot be taken away")
    return ["unshare", "--user"]


def test_a_read_only_output_root_is_refused_in_one_line_by_the_command(book, tmp_path):
    """``chmod a-w book/_generated`` for real (the test above simulates it in-process)."""
    reproduce.run(profile="quick", output_root=str(book))
    manifest = (book / "manifest.json").read_bytes()
    prefix = _as_a_user_who_cannot_write()
    book.chmod(0o555)
    try:
        result = subprocess.run([*prefix, sys.executable, "-m", "analysis", "reproduce", "--output-root", str(book)],
                                cwd=ROOT, env=os.environ | {"ANALYSIS_ROOT": str(tmp_path)}, capture_output=True,
                                text=True, timeout=120)
    finally:
        book.chmod(0o755)
    assert result.returncode == 1, result.stderr
    assert result.stderr.splitlines() == [
        f"reproduce: error: cannot write in the output root {book}: Permission denied"]
    assert (book / "manifest.json").read_bytes() == manifest


SLEEPS = 'import pathlib, time\npathlib.Path(output_root, "started").touch()\ntime.sleep(120)'


@pytest.mark.parametrize("jobs, chapters", [(1, 1), (2, 3)], ids=["one job", "two jobs, a chapter waiting"])
def test_ctrl_c_prints_one_line_and_exits_130(tmp_path, jobs, chapters):
    """Ctrl-C printed the kernel's zmq traceback before the runner's line; with --jobs, the runner then went on
    with the chapters not started yet."""
    nb_dir = tmp_path / "notebooks"
    nb_dir.mkdir()
    for k in range(1, chapters + 1):
        (nb_dir / f"0{k}_slow.py").write_text(NOTEBOOK.format(name=f"0{k}_slow", extra=SLEEPS))
    out = tmp_path / "out"

    def as_a_terminal_job():  # its own process group, which Ctrl-C signals, with SIGINT's default action
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.setpgrp()

    proc = subprocess.Popen([sys.executable, "-m", "analysis", "reproduce", "--jobs", str(jobs), "--output-root",
                             str(out)], cwd=ROOT, env=os.environ | {"ANALYSIS_ROOT": str(tmp_path)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=as_a_terminal_job)
    try:
        deadline = time.monotonic() + 120
        while len(list(out.glob(".staging/*/started"))) < jobs:  # every worker is inside a notebook's cell
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.2)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    lines = [line for line in err.splitlines() if line.strip()]
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "Error" not in err, err
    assert lines[-1] == ("reproduce: interrupted: every chapter keeps its last good outputs (the manifest says "
                         "which)"), err
    assert [line for line in lines if "interrupted" in line] == lines[-1:]
    assert not any((out / ".staging").iterdir()) and read_manifest(out) == {}  # each stopped chapter put things back
