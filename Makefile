# Two targets a newcomer needs: `make demo` and `make test`. Each installs what it needs
# into .venv the first time: `make demo` the package alone (what a club installs),
# `make test` the development tools and the Spark extra as well.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
BASE := $(VENV)/.installed
DEV := $(VENV)/.installed-dev
PURE := build/pure-python

.PHONY: demo test test-pure native check-native lint bench dist clean messages bulletins

# Installing builds the compiled engine too (setup.py, mypyc: about 40 s here, on one
# core), so the package's dependencies install beside it, on the other.
$(BASE): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -c 'import tomllib; print(*tomllib.load(open("pyproject.toml", "rb"))\
	    ["project"]["dependencies"], sep="\n")' > $(VENV)/dependencies.txt
	$(BIN)/python -m pip install --quiet --no-deps -e . & build=$$!; \
	    $(BIN)/python -m pip install --quiet -r $(VENV)/dependencies.txt; deps=$$?; \
	    wait $$build && test $$deps = 0
	touch $(BASE)

# The dev group names kroeg[spark]: pip keeps the installed kroeg and adds the rest
# (`--group` needs pip 25.1).
$(DEV): $(BASE)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --group dev
	touch $(DEV)

demo: $(BASE) check-native
	$(BIN)/kroeg demo --out demo-data

test: $(DEV) check-native
	$(BIN)/python -m pytest -q -n auto

# The extensions run the code they were built from: after a source changed, build them
# again (kroeg._native compares the sources with the build's digests).
check-native: $(BASE)
	@$(BIN)/python -m kroeg._native --quiet || $(MAKE) --no-print-directory native

native: $(BASE)
	$(BIN)/python -m pip install --quiet --no-deps -e .

# The same suite on the pure-Python engine (the fallback where no compiler is): a copy of
# the sources without the extensions, imported first.
test-pure: $(DEV)
	rm -rf $(PURE) && mkdir -p $(PURE)
	tar -c --exclude=./.venv --exclude=./.git --exclude=./build --exclude=./demo-data \
	    --exclude='*.so' --exclude=./kroeg/_native.json --exclude='__pycache__' . \
	    | tar -x -C $(PURE)
	cd $(PURE) && KROEG_PURE_PYTHON=1 PYTHONPATH=$(CURDIR)/$(PURE) \
	    $(CURDIR)/$(BIN)/python -m pytest -q -n auto -p no:cacheprovider

# The bulletin's and the dashboard's words: extract the messages from the code into the
# template, then merge it into every language's catalogue (a changed English text comes
# back marked fuzzy, for its translator; tests/analytics/test_catalogues.py fails until it
# is translated).
messages: $(DEV)
	$(BIN)/pybabel extract -F babel.cfg --no-default-keywords $$($(BIN)/python -c \
	    'from kroeg.analytics.words import EXTRACT_KEYWORDS as k; print(*(f"-k {x}" for x in k))') \
	    --no-location --project=kroeg --version=0.1.0 --copyright-holder="the kroeg authors" \
	    --msgid-bugs-address="the kroeg issues" -o kroeg/locale/kroeg.pot .
	$(BIN)/pybabel update -i kroeg/locale/kroeg.pot -d kroeg/locale -D kroeg --previous \
	    --width=100 --ignore-obsolete

# The sample month's bulletin in every language, kept in docs/bulletins/ (the sample
# logs' November; tests/analytics/test_sample_bulletins.py checks they are up to date).
bulletins: $(BASE) check-native
	rm -rf build/bulletins && mkdir -p build/bulletins
	$(BIN)/kroeg import sample_logs/*.txt --into build/bulletins/club > /dev/null
	for lang in $$($(BIN)/python -c 'from kroeg.analytics.words import LANGUAGES; print(*LANGUAGES)'); do \
	    $(BIN)/kroeg newsletter build/bulletins/club --month 2026-11 --lang $$lang \
	        --out build/bulletins/$$lang > /dev/null && mkdir -p docs/bulletins/$$lang && \
	    cp build/bulletins/$$lang/newsletter-2026-11.md build/bulletins/$$lang/newsletter-2026-11.html \
	        docs/bulletins/$$lang/ || exit 1; \
	done

lint: $(DEV)
	$(BIN)/ruff check .
	$(BIN)/mypy
	@$(BIN)/python -m kroeg._native || (echo "make native: the build is older than its sources"; exit 1)

# The wheel and the sdist, in dist/.
dist: $(DEV)
	rm -rf dist && $(BIN)/python -m build --outdir dist . >/dev/null
	ls dist

bench: $(DEV)
	$(BIN)/python -m pip install --quiet --group bench
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/notation.py
	$(BIN)/python bench/stats.py
	$(BIN)/python bench/analysis.py
	$(BIN)/python bench/openspiel.py

clean:
	rm -rf $(VENV) demo-data dist .pytest_cache .mypy_cache .ruff_cache build
	find recorder parsers analytics kroeg -name '*.so' -delete
	rm -f kroeg/_native.json
