# The two commands a new user runs: `make site` and `make test`.
# Everything they need is installed here, into .venv (and Debian packages via apt-get):
# `make site` installs only what building needs; the test tools come with `make test`.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-site
TOOLS  := $(VENV)/.installed-test
N      ?= 100,1000,10000
# The MCP Inspector's CLI, from npm, for the tests that drive the HTTP server with it.
INSPECTOR_VERSION := 2.12.0
INSPECTOR := $(VENV)/inspector/node_modules/.bin/mcp-inspector
# Lighthouse, from npm, for the test that scores a record page (12.x: the last line that runs
# on Debian 12's Node 20).
LIGHTHOUSE_VERSION := 12.8.2
LIGHTHOUSE := $(VENV)/lighthouse/node_modules/.bin/lighthouse

# The Mermaid release the theme ships: theme/mermaid/ holds the npm package's ES-module build
# (dist/mermaid.esm.min.mjs and the chunks it imports, dist/chunks/mermaid.esm.min/*.mjs), its
# LICENSE, and SHA256SUMS listing every one of those files with its SHA-256. MERMAID_SHA256 pins
# the SHA256SUMS file itself, so one hash covers the whole set. `make mermaid` fetches the release
# again and refuses a set whose SHA256SUMS differs from the pin; `make mermaid-verify` checks the
# files in place. To upgrade, set both: make mermaid MERMAID_VERSION=x.y.z MERMAID_SHA256=<hash>
# (a refused fetch prints the new set's hash, to be checked before it is pinned).
MERMAID_VERSION ?= 12.3.0
MERMAID_SHA256  ?= be531f74168869cc0fbf66a6191978a6c3e16e91b35946aad257514106e1ecb9
MERMAID_DIR     := theme/mermaid

.DEFAULT_GOAL := help
.PHONY: help site serve test check lint bench system-deps clean mermaid mermaid-verify

help:
	@echo "make site    build example-site/ into example-site/_site"
	@echo "make serve   live preview of example-site on http://127.0.0.1:8000/"
	@echo "make test    lint (ruff, mypy --strict) and run every test (installs what they need)"
	@echo "make check   validate example-site with site-builder check --strict"
	@echo "make bench   speed and memory against Hugo and MkDocs (at N=$(N) records;"
	@echo "             N=100,1000,10000,100000 adds the 100,000-record build, slow)"
	@echo "make mermaid fetch the pinned Mermaid release from npm into theme/mermaid/ (checks its SHA-256s)"

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

# ruff for style, mypy --strict (configured in pyproject.toml) for types: both at zero.
lint: $(TOOLS)
	$(BIN)/ruff check .
	$(BIN)/mypy

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

$(LIGHTHOUSE): | $(BIN)/python system-deps
	npm install --prefix $(VENV)/lighthouse --no-audit --no-fund --loglevel=error \
	  lighthouse@$(LIGHTHOUSE_VERSION)
	@touch $@

test: $(TOOLS) system-deps $(INSPECTOR) $(LIGHTHOUSE) lint
	$(BIN)/python -m pytest -n 2 tests

bench: $(TOOLS)
	$(BIN)/python bench/run.py --sizes $(N)
	$(BIN)/python -m bench.completion --records 10000
	$(BIN)/python -m bench.citations --files 10000

mermaid:
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	  (cd "$$tmp" && npm pack --silent mermaid@$(MERMAID_VERSION) >/dev/null && \
	   tar xzf mermaid-$(MERMAID_VERSION).tgz --wildcards package/LICENSE \
	     package/dist/mermaid.esm.min.mjs 'package/dist/chunks/mermaid.esm.min/*.mjs' && \
	   mkdir -p set/chunks && cp package/LICENSE package/dist/mermaid.esm.min.mjs set/ && \
	   cp -r package/dist/chunks/mermaid.esm.min set/chunks/ && \
	   (cd set && find . -type f | sed 's|^\./||' | LC_ALL=C sort | xargs sha256sum >../SHA256SUMS) && \
	   mv SHA256SUMS set/) && \
	  got=$$(sha256sum "$$tmp/set/SHA256SUMS" | cut -d' ' -f1) && \
	  if [ "$$got" != "$(MERMAID_SHA256)" ]; then \
	    echo "mermaid $(MERMAID_VERSION): its SHA256SUMS has SHA-256 $$got, not the pinned $(MERMAID_SHA256)"; exit 1; fi && \
	  rm -rf $(MERMAID_DIR) && cp -r "$$tmp/set" $(MERMAID_DIR) && \
	  echo "$(MERMAID_DIR)/ is mermaid $(MERMAID_VERSION) ($$(wc -l <$(MERMAID_DIR)/SHA256SUMS) files, $$got)"

# The pin covers SHA256SUMS, SHA256SUMS covers each file, and no file is there that it omits.
mermaid-verify:
	@echo "$(MERMAID_SHA256)  $(MERMAID_DIR)/SHA256SUMS" | sha256sum -c --quiet - && \
	  (cd $(MERMAID_DIR) && sha256sum -c --quiet SHA256SUMS) && \
	  listed=$$(cut -c67- $(MERMAID_DIR)/SHA256SUMS) && \
	  present=$$(cd $(MERMAID_DIR) && find . -type f ! -name SHA256SUMS | sed 's|^\./||' | LC_ALL=C sort) && \
	  if [ "$$listed" != "$$present" ]; then echo "$(MERMAID_DIR)/ holds files SHA256SUMS does not list"; exit 1; fi && \
	  grep -q '"$(MERMAID_VERSION)"' $(MERMAID_DIR)/mermaid.esm.min.mjs && \
	  echo "$(MERMAID_DIR)/ is mermaid $(MERMAID_VERSION)"

clean:
	rm -rf $(VENV) example-site/_site example-site/.site-builder tests/output
