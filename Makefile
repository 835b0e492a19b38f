# Thin entry points. The two set-up commands are `make book` and `make test` (see README.md).
PYTHON  ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV    := .venv
BIN     := $(VENV)/bin
PROFILE ?= full
JOBS    ?= 2
STAMP   := $(VENV)/.installed
# uv installs the lock's exact versions without resolving them (seconds instead of minutes); plain pip is the fallback
UV_VERSION := 0.9.30

.PHONY: setup data reproduce book test test-fast bench lock clean

setup: $(STAMP)

# The environment is created from the lock file (exact versions), then the package itself is installed editable.
$(STAMP): requirements.lock pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info[:2] == (3, 11), "Python 3.11 is required, found " + sys.version' \
		|| { echo "error: set PYTHON to a Python 3.11 interpreter"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	{ $(BIN)/python -m pip install --quiet "uv==$(UV_VERSION)" && \
	  $(BIN)/uv pip install --python $(BIN)/python --quiet --requirement requirements.lock; } || \
	  { echo "uv failed: installing with pip"; $(BIN)/python -m pip install --quiet --requirement requirements.lock; }
	$(BIN)/python -m pip install --quiet --no-deps --editable .
	$(BIN)/python -m pip check
	@touch $@

# Fill data/raw (from the local mirror ../shared/data when present, else the pinned upstream URLs; every sha256
# verified) and build data/processed. A no-op when everything is present and unchanged.
data: setup
	$(BIN)/python -m analysis data fetch
	$(BIN)/python -m analysis data prepare

# Only the chapters that are not up to date run (`python -m analysis outputs status` says which, and why);
# FORCE=1 reruns them all.
reproduce: data
	$(BIN)/python -m analysis reproduce --profile $(PROFILE) --jobs $(JOBS)$(if $(FORCE), --force)

# The claims' verdicts are computed from the outputs (book/_generated/claims.csv) before the HTML is built from them.
# Jupyter Book rebuilds the HTML incrementally (Sphinx's environment in _build/.doctrees): the pages of chapters
# that were skipped keep their files and modification times, so only what changed is read again. A failed build
# drops that environment, so that the next one reads every page again and repeats the warnings rather than pass.
book: reproduce
	$(BIN)/python -m analysis claims
	$(BIN)/jupyter-book build . -W -n --keep-going || { rm -rf _build/.doctrees; exit 1; }
	@echo "book: $(CURDIR)/_build/html/index.html"

# The tests read the prepared tables (the data tests skip, naming the reason, only when no mirror is reachable).
# ruff checks the package, the tests, the benchmarks and the notebooks first (configuration in pyproject.toml).
# Two pytest-xdist workers, test by test, except that the modules reading one costly session fixture (the quick book;
# the data fetched from the mirror) run on one worker, so each is built once (tests/conftest.py).
test: data
	$(BIN)/python -m ruff check .
	$(BIN)/python -m pytest -n $(JOBS)

# The unit, property and data tests only (no notebook run, no book build): a few minutes.
test-fast: data
	$(BIN)/python -m ruff check .
	$(BIN)/python -m pytest -n $(JOBS) -m "not slow"

bench: setup
	$(BIN)/python -m benchmarks.run

# Regenerate the lock file on purpose, from the dependency ranges in pyproject.toml, in a scratch environment.
lock:
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet --editable ".[dev]"
	{ echo '# Exact versions used to build the published book; regenerate on purpose with `make lock`.'; \
	  .lock-venv/bin/python -m pip freeze --exclude-editable | grep -v '^analysis'; } > requirements.lock
	rm -rf .lock-venv

clean:
	rm -rf _build book/_generated .pytest_cache .hypothesis
