# kubik — two commands on a fresh machine:
#   make demo   create .venv, install kubik (what it needs to run, no dev tools), play a built-in
#               battle / show odds and a refereed resolution; its last line says how to reach the
#               `kubik` command (`source .venv/bin/activate`)
#   make test   create .venv, install kubik with its dev tools, run ruff, mypy and every test
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# kubik and what it needs to run / the same plus the dev tools (tests, linters, bench)
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck bench install clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(RUN_STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e .
	touch $(RUN_STAMP)

$(DEV_STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(RUN_STAMP) $(DEV_STAMP)

install: $(DEV_STAMP)

demo: $(RUN_STAMP)
	$(BIN)/python -m kubik.cli.demo

lint: $(DEV_STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(DEV_STAMP)
	$(BIN)/mypy

test: lint typecheck
	$(BIN)/pytest -n auto

bench: $(DEV_STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
