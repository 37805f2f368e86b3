# One command sets up from nothing and runs the main job; one sets up and runs the tests.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: setup run test test-slow lint bench clean

$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -c constraints.txt -e ".[dev]"
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)  ## the main job: a seeded match of random agents on every finished game
	$(BIN)/bidbluff match --games 20 --seed 0

test: $(STAMP)  ## lint + the default test suite (slow tests excluded)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q -n 2

test-slow: $(STAMP)  ## the slow suite: long random-play fuzz
	$(BIN)/python -m pytest -q -n 2 -m slow

bench: $(STAMP)
	$(BIN)/python bench/bench_envs.py

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache .ruff_cache
