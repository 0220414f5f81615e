# Two targets a newcomer needs: `make demo` and `make test`. Both build .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-pure native lint bench clean

# Installing builds the compiled engine too (setup.py, mypyc), about half a minute.
$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[spark]' --group dev
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/kroeg demo --out demo-data

test: $(STAMP)
	$(BIN)/python -m pytest -q -n auto

# The same suite on the pure-Python engine (the fallback where no compiler is).
test-pure: $(STAMP)
	KROEG_PURE_PYTHON=1 $(BIN)/python -m pytest -q -n auto

# Compile the engine again after changing its sources (until then they run as Python).
native: $(STAMP)
	$(BIN)/python -m pip install --quiet --no-deps -e .

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet --group bench
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/notation.py
	$(BIN)/python bench/stats.py
	$(BIN)/python bench/analysis.py
	$(BIN)/python bench/openspiel.py

clean:
	rm -rf $(VENV) demo-data .pytest_cache .mypy_cache .ruff_cache build *.so recorder/*.so
