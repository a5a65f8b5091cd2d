# The two commands a new user runs: `make site` and `make test`.
# Everything they need is installed here, into .venv (and Debian packages via apt-get).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
N      ?= 10000
# The MCP Inspector's CLI, from npm, for the tests that drive the HTTP server with it.
INSPECTOR_VERSION := 2.12.0
INSPECTOR := $(VENV)/inspector/node_modules/.bin/mcp-inspector

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
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $@

site: $(STAMP)
	$(BIN)/site-builder build --root example-site
	@echo "The site is in example-site/_site/ -- preview it with: make serve"

serve: $(STAMP)
	$(BIN)/site-builder serve --root example-site

check: $(STAMP)
	$(BIN)/site-builder check --strict --root example-site

lint: $(STAMP)
	$(BIN)/ruff check .

# Browser tests drive Debian's chromium; install it when it is missing.
system-deps:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing chromium (Debian package) for the browser tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }
	@command -v npm >/dev/null 2>&1 || { \
	  echo "installing Node.js and npm (Debian packages) for the MCP Inspector tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null; }
	@command -v java >/dev/null 2>&1 || { \
	  echo "installing a Java runtime for the HTML validator"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq default-jre-headless >/dev/null; }

$(INSPECTOR): | $(BIN)/python system-deps
	npm install --prefix $(VENV)/inspector --no-audit --no-fund --loglevel=error \
	  @modelcontextprotocol/inspector@$(INSPECTOR_VERSION)
	@touch $@

test: $(STAMP) system-deps $(INSPECTOR) lint
	$(BIN)/python -m pytest -n 2 tests

bench: $(STAMP)
	$(BIN)/python bench/run.py --records $(N)

clean:
	rm -rf $(VENV) example-site/_site example-site/.site-builder tests/output
