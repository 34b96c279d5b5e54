# Every target sets up .venv itself, so a fresh clone needs only `make demo` or `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck pytest bench clean

# The install compiles arena.game with mypyc where a C compiler works (setup.py), so an edit
# of the compiled modules reinstalls; ARENA_COMPILE=0 make installs the pure engine alone
# (and removes the compiled modules of an earlier install: a change of ARENA_COMPILE or
# ARENA_PURE reinstalls). It prints the build's line on the engine (compiled, or pure and
# why, and what it removed) and the one that runs.
CHOICE := $(VENV)/.build-compile$(ARENA_COMPILE)-pure$(ARENA_PURE)
$(CHOICE):
	mkdir -p $(VENV) && rm -f $(VENV)/.build-* && touch $@

$(STAMP): pyproject.toml setup.py $(wildcard arena/game/*.py) arena/env/_encoding.py arena/env/_table.py \
  arena/env/_bits.py arena/env/_bits.c arena/referee/loop/_loop.py arena/referee/loop/_record.py \
  $(CHOICE)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install -v -e '.[test,dask,env,web]' > $(VENV)/install.log 2>&1 \
	  || { tail -n 40 $(VENV)/install.log; echo "install failed: $(VENV)/install.log"; exit 1; }
	-grep -h 'arena: ' $(VENV)/install.log | sed 's/^ *//'
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

# The suite on the engine installed (compiled where the machine could build it), then, on the
# pure engine every machine falls back to (ARENA_PURE=1), the tests that exercise arena.game
# and the referee's match loop or check their records: PURE_TESTS. Not the whole suite
# twice: that does not fit make test's 10 minutes on 2 cores (docs/architecture.md, "The
# compiled engine", has the times). The rest (process hosts, sandbox, tournaments, web,
# report, ratings) tests what drives the engine or reads its records, and test_engines plays tournaments on both engines and compares them.
PURE_TESTS := tests/game tests/bots tests/env tests/referee/test_record_identity.py \
  tests/referee/test_legal_moves.py tests/referee/test_uecda_host.py \
  tests/referee/test_uecda_rulings.py tests/referee/test_hosts.py tests/referee/test_watch.py \
  tests/cli/test_match.py
# Not again: test_engines (it runs both engines itself) and what builds and installs a package.
PURE_SKIP := --ignore=tests/game/test_engines.py --ignore=tests/env/test_learning_example.py \
  --ignore=tests/bots/test_example_package.py
pytest: $(STAMP)
	$(BIN)/pytest -n auto
	if $(BIN)/python -c 'import arena.game as g, sys; sys.exit(g.engine().startswith("pure"))'; \
	then echo "== the engine's tests again on the pure-Python engine (ARENA_PURE=1)"; \
	  ARENA_PURE=1 $(BIN)/pytest -n auto $(PURE_SKIP) $(PURE_TESTS); \
	else echo "== arena.game is not compiled: the suite ran once, on the pure engine"; fi

bench: $(STAMP)
	for b in benchmarks/[!_]*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) $(VENV)-* build *.egg-info runs *.so arena/game/*.so arena/env/*.so
