# Every target sets up .venv itself, so a fresh clone needs only `make demo` or `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck pytest bench clean

# With ARENA_COMPILE=1 the install compiles arena.game with mypyc (setup.py), so an edit of
# arena/game reinstalls; the last line says which engine runs (compiled, or pure and why).
$(STAMP): pyproject.toml setup.py $(wildcard arena/game/*.py)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,dask,env,web]'
	$(BIN)/python -c 'import arena.game as g; print("arena.game:", g.engine())'
	touch $(STAMP)

# The demo tournament; run it again and it resumes (here: finds every match recorded).
demo: $(STAMP)
	$(BIN)/arena run configs/demo.yaml --out runs/demo
	$(BIN)/arena ratings runs/demo/records.jsonl
	$(BIN)/arena report runs/demo

test: $(STAMP) lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check arena bots tests benchmarks examples

typecheck: $(STAMP)
	$(BIN)/mypy

# The whole suite on the compiled engine, then again on the pure one (ARENA_PURE=1), which
# is every machine's fallback; one pass where nothing is compiled.
pytest: $(STAMP)
	$(BIN)/pytest -n auto
	if $(BIN)/python -c 'import arena.game as g, sys; sys.exit(g.engine().startswith("pure"))'; \
	then echo "== the whole suite again on the pure-Python engine (ARENA_PURE=1)"; \
	  ARENA_PURE=1 $(BIN)/pytest -n auto; \
	else echo "== arena.game is not compiled: the suite ran once, on the pure engine"; fi

bench: $(STAMP)
	for b in benchmarks/[!_]*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info runs *.so arena/game/*.so
