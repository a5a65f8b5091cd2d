# The two commands a new user runs: `make site` and `make test`.
# Everything they need is installed here, into .venv (and Debian packages via apt-get):
# `make site` installs only what building needs; the test tools come with `make test`.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-site
TOOLS  := $(VENV)/.installed-test
N      ?= 10000

.DEFAULT_GOAL := help
.PHONY: help site serve test check lint bench system-deps clean

help:
	@echo "make site    build example-site/ into example-site/_site"
	@echo "make serve   live preview of example-site on http://127.0.0.1:8000/"
	@echo "make test    lint and run every test (installs what the tests need)"
	@echo "make check   validate example-site with site-builder check --strict"
	@echo "make bench   speed and memory against Hugo and MkDocs (N=$(N) records)"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	@touch $@

$(TOOLS): pyproject.toml $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $@

site: $(STAMP)
	$(BIN)/site-builder build --root example-site
	@echo "The site is in example-site/_site/ -- preview it with: make serve"

serve: $(STAMP)
	$(BIN)/site-builder serve --root example-site

check: $(STAMP)
	$(BIN)/site-builder check --strict --root example-site

lint: $(TOOLS)
	$(BIN)/ruff check .

# Browser tests drive Debian's chromium; install it when it is missing.
system-deps:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing chromium (Debian package) for the browser tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }
	@command -v java >/dev/null 2>&1 || { \
	  echo "installing a Java runtime for the HTML validator"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq default-jre-headless >/dev/null; }

test: $(TOOLS) system-deps lint
	$(BIN)/python -m pytest -n 2 tests

bench: $(TOOLS)
	$(BIN)/python bench/run.py --records $(N)

clean:
	rm -rf $(VENV) example-site/_site example-site/.site-builder tests/output
