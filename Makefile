# One command sets up from nothing and runs the main job; one sets up and runs the tests.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: setup run test test-slow lint bench serve play clean

$(STAMP): pyproject.toml constraints.txt setup.py envs/core/_speedups.c
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -c constraints.txt -e ".[dev]"
	touch $(STAMP)

setup: $(STAMP)

MAIN := runs/main
run: $(STAMP)  ## the main job: equilibrium-seeking self-play from scratch at 2 players x 1 die, its exact exploitability printed at each checkpoint, then a 4-player Liar's dice table
	rm -rf $(MAIN)
	$(BIN)/bidbluff selfplay liars_dice_v0 --recipe equilibrium --total-steps 1000000 --checkpoint-every 100000 --seed 0 --no-progress \
		--out $(MAIN)
	$(BIN)/bidbluff tournament liars_dice_v0 --agents shipped,heuristic,heuristic,random --players 4 --games 10000 --seed 0

test: $(STAMP)  ## lint, the formatter check and the default test suite (slow tests excluded)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest -q -n 2 -rs

test-slow: $(STAMP)  ## the slow suite: long random-play fuzz
	$(BIN)/python -m pytest -q -n 2 -rs -m slow

bench: $(STAMP)  ## speed: envs against peer envs, then training throughput (see bench/README.md)
	$(BIN)/python -m pip install --quiet -c constraints.txt -e ".[bench]"
	$(BIN)/python bench/bench_envs.py
	$(BIN)/python bench/bench_training.py

serve: $(STAMP)  ## the browser table on http://127.0.0.1:8000/ (installs the web extra first)
	$(BIN)/python -m pip install --quiet -c constraints.txt -e ".[web]"
	$(BIN)/bidbluff serve

GAME ?= liars_dice_v0
play: $(STAMP)  ## a game in the terminal against the shipped network (GAME=spytails_v0 make play)
	$(BIN)/bidbluff play $(GAME)

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache .ruff_cache
