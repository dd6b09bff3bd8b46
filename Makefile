# Game-search notebooks: everyday commands.
#
#   make lab        open the notebooks in JupyterLab
#   make check      the everyday loop (about 70 s of CPU: under 40 s on two idle cores): ruff,
#                   mypy, and every test that is not slow, notebook or browser
#   make test       all of it: ruff, then every test (mypy beside them): unit tests, notebooks (nbval),
#                   browser tests (what .ci/run runs; about 450 s of CPU, Chromium included)
#   make notebooks  re-execute notebooks in place (NOTEBOOKS="notebooks/02-Minimax.ipynb ...")
#   make students   make the exercises' student notebooks from the solutions (nbgrader) and run them
#   make slides     the lessons as reveal.js slides in build/slides, working offline
#   make lint       ruff and mypy
#   make lite       build the JupyterLite site (the notebooks in the browser) into build/lite,
#                   with JupyterLite's tools in an environment of their own, .venv-lite
#   make pyodide    install Pyodide for node into tests/pyodide/node_modules (for make test)
#
# Each target first creates or refreshes the virtual environment in .venv. uv installs only when
# the environment is missing or pyproject.toml changed since the last install (stamp files in
# .venv), so a second run starts within seconds. Pick the interpreter with
# `make test PYTHON=python3.12`; Python 3.10 or newer is required.
# Tests run on every core (pytest-xdist; WORKERS=0 runs them in this process; make test runs
# one worker more than the cores).
# Extra arguments: make test PYTEST_ARGS="tests/test_packaging.py -x"
#                  make check PYTEST_ARGS="tests/search -x" WORKERS=0
#                  make lab LAB_ARGS="--no-browser --port=8890"

PYTHON ?= $(shell command -v python3 >/dev/null 2>&1 && echo python3 || echo python)
VENV := .venv
VPY := $(VENV)/bin/python
# Stamps: the first says gamelib is installed (lab), the second adds the test and dev tools.
STAMP_RUN := $(VENV)/.installed
STAMP_ALL := $(VENV)/.installed-test-dev
# JupyterLite's tools live in .venv-lite, never beside JupyterLab: their kernel extension would
# load into JupyterLab and fail on every page (pyproject's dependency group "lite" says more).
VENV_LITE := .venv-lite
LPY := $(VENV_LITE)/bin/python
STAMP_LITE := $(VENV_LITE)/.installed
NOTEBOOKS ?=
PYTEST_ARGS ?=
WORKERS ?= auto
# make test: one worker more than the cores. Its notebook and browser tests spend part of their
# time waiting on a kernel, JupyterLab or Chromium; a third worker on two cores keeps both busy
# (a fresh .ci/run: pytest 333 s with 3 workers, 362 s with 2, on an idle 2-core machine).
TEST_WORKERS ?= $(if $(filter auto,$(WORKERS)),$(shell $(PYTHON) -c \
  'import os; print(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)' \
  | awk '{ print $$1 + 1 }'),$(WORKERS))
# make check: the tests under tests/ without the three heavy kinds (pyproject's markers).
QUICK := -m "not slow and not notebook and not browser"
LAB_ARGS ?=
# Jupyter refuses to run as root unless told to (containers, CI machines).
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root)

# Playwright drives Debian's /usr/bin/chromium; it must never fetch browsers of its own.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1
# Jupyter's new platform-specific folders, without its deprecation warning.
export JUPYTER_PLATFORM_DIRS := 1
export PIP_DISABLE_PIP_VERSION_CHECK := 1

.DEFAULT_GOAL := help
# A recipe that fails or is interrupted leaves no stamp (or half-made python) behind.
.DELETE_ON_ERROR:
.PHONY: help lab check test notebooks students slides lint clean
.PHONY: lite lite-serve pyodide

help:
	@echo "make lab        open the notebooks in JupyterLab"
	@echo "make check      everyday loop, about a minute: ruff, mypy, tests not slow/notebook/browser"
	@echo "make test       everything: ruff, mypy, unit tests, every notebook (nbval), browser tests"
	@echo "make notebooks  re-execute notebooks in place (all, or NOTEBOOKS=\"path ...\")"
	@echo "make students   student notebooks from the exercise solutions (nbgrader), then run them"
	@echo "make slides     the lessons as reveal.js slides in build/slides (offline; needs npm once)"
	@echo "make lint       ruff and mypy"
	@echo "make clean      remove caches (keeps .venv)"
	@echo "make lite       build the JupyterLite site into build/lite (make lite-serve: serve it)"
	@echo "make pyodide    install Pyodide for node (npm) for the tests that run gamelib in it"

$(VPY) $(LPY):
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null || { \
	  echo "error: '$(PYTHON)' is missing or older than Python 3.10; install Python 3.10+" \
	       "or name one with: make $(MAKECMDGOALS) PYTHON=/path/to/python3" >&2; exit 1; }
	@echo "Creating the virtual environment in $(@D:/bin=) with $$($(PYTHON) --version 2>&1)"
	@$(PYTHON) -m venv $(@D:/bin=) || { \
	  echo "error: could not create $(@D:/bin=); on Debian/Ubuntu: apt-get install python3-venv" >&2; \
	  rm -f $@; exit 1; }

# The packages are installed with uv (a fast installer from PyPI, put into each environment by
# its own pip, a few seconds): a fresh .venv with the test and dev tools took 17 s of CPU
# (the venv 8.5 s, uv 3.5 s, the packages 4.6 s), against 50 s with pip, and the same versions
# (`uv pip freeze` and `pip freeze` list the same). uv compiles no bytecode: Python
# compiles what is imported, when first imported. A .venv made by an older Makefile gets uv
# on the next make.
UV_SPEC := uv>=0.9,<1
$(VENV)/bin/uv $(VENV_LITE)/bin/uv: %/bin/uv: | %/bin/python
	@$*/bin/python -m pip install --quiet --disable-pip-version-check '$(UV_SPEC)'
UV_INSTALL = pip install --quiet --python

# A .venv made while JupyterLite's tools came with the test extras still holds them, and its
# JupyterLab would load their kernel extension and fail on every page: they go when .venv is
# refreshed (a fraction of a second, and only then).
DROP_LITE = @if $(VENV)/bin/uv pip show --quiet --python $(VPY) jupyterlite-pyodide-kernel \
	  >/dev/null 2>&1; then \
	  echo "Removing JupyterLite's tools from $(VENV) (make lite keeps them in $(VENV_LITE))"; \
	  $(VENV)/bin/uv pip uninstall --quiet --python $(VPY) jupyterlite-pyodide-kernel \
	    jupyterlite-core; fi

$(STAMP_RUN): pyproject.toml | $(VENV)/bin/uv
	@echo "Installing gamelib and JupyterLab into $(VENV)"
	$(VENV)/bin/uv $(UV_INSTALL) $(VPY) -e .
	$(DROP_LITE)
	@touch $@

$(STAMP_ALL): pyproject.toml | $(VENV)/bin/uv
	@echo "Installing gamelib with its test and dev tools into $(VENV)"
	$(VENV)/bin/uv $(UV_INSTALL) $(VPY) -e '.[test,dev]'
	$(DROP_LITE)
	@touch $(STAMP_RUN) $@

# The dependency group "lite" of pyproject.toml (PEP 735), which uv installs with --group.
$(STAMP_LITE): pyproject.toml | $(VENV_LITE)/bin/uv
	@echo "Installing JupyterLite's tools into $(VENV_LITE)"
	$(VENV_LITE)/bin/uv $(UV_INSTALL) $(LPY) --group lite
	@touch $@

lab: $(STAMP_RUN)
	$(VPY) -m jupyterlab --ServerApp.root_dir=notebooks $(ALLOW_ROOT) $(LAB_ARGS)

# Python writes its bytecode caches (__pycache__, ignored by git) in make check and make test
# even where PYTHONDONTWRITEBYTECODE is set (an empty value turns it off): without them every
# run recompiles gamelib in each test worker, kernel and subprocess, and pytest rewrites the
# asserts of every test module again (about 4 s of CPU per worker in make check alone).
check test: export PYTHONDONTWRITEBYTECODE :=
# Every process of make check and make test (pytest and its workers, kernels, JupyterLab servers,
# tools) finds tests/without_rfc3987_syntax first on its path: jsonschema then goes without the
# optional rfc3987-syntax, whose import costs each process that imports jsonschema about 1.5 s of
# CPU (that folder's module says why).
check test: export PYTHONPATH := $(CURDIR)/tests/without_rfc3987_syntax$(if $(PYTHONPATH),:$(PYTHONPATH))

# make check runs lint first, then pytest on every core; it leaves out what is marked slow
# (over 2 s), notebook (runs notebooks in a kernel) or browser (drives Chromium).
check: lint
	$(VPY) -m pytest tests $(QUICK) -n $(WORKERS) $(PYTEST_ARGS)

# In make test a test file's tests stay together on one worker (--dist loadfile): a notebook's
# cells run in order in one kernel, and a module's fixtures (an nbgrader course, a served
# JupyterLite site) are set up once; session fixtures (JupyterLab, Chromium) once per worker,
# and the JupyterLite build once per run, shared by the workers (tests/conftest.py). (Not
# --dist loadgroup: with pytest 9 and pytest-xdist 3.8 its xdist_group marks are silently
# ignored.)
# With npm there, the slides' libraries come first (once), for
# tests/browser/test_slides_browser.py; if npm cannot fetch them, a warning, and that test
# skips itself and says why.
# The tests that build the JupyterLite site run lite/build.py with .venv-lite's Python.
# ruff runs first (a second); mypy (about 17 s of one core from a fresh clone) runs beside
# pytest, while its workers start and collect, and its verdict is printed after pytest's: make
# test fails if either fails.
TEST_MYPY_LOG := $(VENV)/mypy-during-test.log
test: $(STAMP_ALL) $(STAMP_LITE)
	@if command -v npm >/dev/null 2>&1; then \
	  $(MAKE) --no-print-directory $(SLIDES_LIB)/.installed || \
	  echo "warning: npm could not install the slides' libraries: the slides test will skip" >&2; \
	fi
	$(RUFF)
	@echo "$(VPY) -m mypy (beside pytest; its output follows pytest's)"
	@$(VPY) -m mypy >$(TEST_MYPY_LOG) 2>&1 & mypy=$$!; \
	  echo "$(VPY) -m pytest -n $(TEST_WORKERS) --dist loadfile $(PYTEST_ARGS)"; \
	  $(VPY) -m pytest -n $(TEST_WORKERS) --dist loadfile $(PYTEST_ARGS); tests=$$?; \
	  wait $$mypy; types=$$?; \
	  echo "mypy:"; cat $(TEST_MYPY_LOG); rm -f $(TEST_MYPY_LOG); \
	  [ $$tests -eq 0 ] && [ $$types -eq 0 ]

notebooks: $(STAMP_ALL)
	$(VPY) tools/run_notebooks.py $(NOTEBOOKS)

# The student versions of the exercises: nbgrader's preprocessors clear the solutions, then
# the student notebooks are executed so that their saved outputs say "not done yet".
students: $(STAMP_ALL)
	$(VPY) tools/make_student_notebooks.py
	$(VPY) tools/run_notebooks.py $(filter-out %-Solution.ipynb,$(wildcard notebooks/exercises/[0-9][0-9]-*.ipynb))

# Slides: tools/slides.py converts the lessons with nbconvert's reveal.js template, made to fit
# a 1280x800 projector (tools/slides/gamelib-slides: a section starts a slide, tables and
# pictures sized for the slide, a slide too full scaled to fit). nbconvert would load reveal.js,
# require.js, jQuery and MathJax from CDNs: `make slides` fetches them once from the npm registry
# into build/slides/lib (never committed) and the slides load them from there, so that
# build/slides/*.slides.html work without a network (open them in a browser, arrow keys to
# move). SLIDES="notebooks/03-Memoization.ipynb" converts only some lessons. Slide types come
# from each cell's slideshow metadata.
SLIDES ?= $(sort $(wildcard notebooks/[0-9][0-9]-*.ipynb))
SLIDES_DIR := build/slides
SLIDES_LIB := $(SLIDES_DIR)/lib
SLIDES_NPM := reveal.js@4 requirejs@2 jquery@2 mathjax@2
SLIDES_JS := $(SLIDES_LIB)/node_modules

$(SLIDES_LIB)/.installed:
	@command -v npm >/dev/null 2>&1 || { \
	  echo "error: make slides needs npm once, to fetch reveal.js and MathJax for offline" \
	       "slides (Debian/Ubuntu: apt-get install npm)" >&2; exit 1; }
	mkdir -p $(SLIDES_LIB)
	npm install --prefix $(SLIDES_LIB) --no-audit --no-fund --no-save $(SLIDES_NPM)
	@touch $@

slides: $(STAMP_ALL) $(SLIDES_LIB)/.installed
	$(VPY) tools/slides.py --output-dir $(SLIDES_DIR) $(SLIDES)
	@echo "Slides in $(SLIDES_DIR): open $(SLIDES_DIR)/01-Tic-Tac-Toe.slides.html in a browser"

RUFF = $(VPY) -m ruff check $(wildcard gamelib tests tools benchmarks conftest.py)
lint: $(STAMP_ALL)
	$(RUFF)
	$(VPY) -m mypy

clean:
	rm -rf .pytest_cache .mypy_cache .ruff_cache .hypothesis build dist
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +

# JupyterLite: a static site with every notebook and gamelib's wheel (lite/build.py). With npm
# on the PATH, the site also serves Pyodide itself (npm's pyodide package, as make pyodide
# installs it); without npm it loads Pyodide from the CDN.
LITE_DIR ?= build/lite
lite: $(STAMP_LITE) $(if $(shell command -v npm 2>/dev/null),pyodide)
	$(LPY) lite/build.py --output-dir $(LITE_DIR)

lite-serve: lite
	$(LPY) -m http.server --bind 127.0.0.1 --directory $(LITE_DIR) 8000

# Pyodide under node, for tests/test_pyodide.py: exact versions from package-lock.json.
pyodide: tests/pyodide/node_modules/pyodide/package.json

tests/pyodide/node_modules/pyodide/package.json: tests/pyodide/package.json tests/pyodide/package-lock.json
	@command -v npm >/dev/null 2>&1 || { \
	  echo "error: npm is missing; install Node.js 18 or newer (Debian: apt-get install nodejs npm)" >&2; \
	  exit 1; }
	cd tests/pyodide && npm ci --no-audit --no-fund --loglevel=error
	@touch $@
