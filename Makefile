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

# The Mermaid release the theme ships (theme/mermaid.min.js, from the npm package's dist/).
# `make mermaid` fetches it again and refuses a file whose SHA-256 differs from this pin; to
# upgrade, set both: make mermaid MERMAID_VERSION=x.y.z MERMAID_SHA256=<the new file's hash>.
MERMAID_VERSION ?= 12.3.0
MERMAID_SHA256  ?= 336df803d87a38b70a01e736e666c8f7601d2ce42f5e47c8fafe5d721074b9a3

.DEFAULT_GOAL := help
.PHONY: help site serve test check lint bench system-deps clean mermaid mermaid-verify

help:
	@echo "make site    build example-site/ into example-site/_site"
	@echo "make serve   live preview of example-site on http://127.0.0.1:8000/"
	@echo "make test    lint and run every test (installs what the tests need)"
	@echo "make check   validate example-site with site-builder check --strict"
	@echo "make bench   speed and memory against Hugo and MkDocs (at N=$(N) records)"
	@echo "make mermaid fetch the pinned Mermaid release from npm into theme/ (checks its SHA-256)"

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

test: $(TOOLS) system-deps $(INSPECTOR) lint
	$(BIN)/python -m pytest -n 2 tests

bench: $(TOOLS)
	$(BIN)/python bench/run.py --sizes $(N)

mermaid:
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	  (cd "$$tmp" && npm pack --silent mermaid@$(MERMAID_VERSION) >/dev/null && \
	   tar xzf mermaid-$(MERMAID_VERSION).tgz package/dist/mermaid.min.js package/LICENSE) && \
	  got=$$(sha256sum "$$tmp/package/dist/mermaid.min.js" | cut -d' ' -f1) && \
	  if [ "$$got" != "$(MERMAID_SHA256)" ]; then \
	    echo "mermaid $(MERMAID_VERSION): dist/mermaid.min.js has SHA-256 $$got, not the pinned $(MERMAID_SHA256)"; exit 1; fi && \
	  cp "$$tmp/package/dist/mermaid.min.js" theme/mermaid.min.js && \
	  cp "$$tmp/package/LICENSE" theme/mermaid-LICENSE.txt && \
	  echo "theme/mermaid.min.js is mermaid $(MERMAID_VERSION) ($$got)"

mermaid-verify:
	@echo "$(MERMAID_SHA256)  theme/mermaid.min.js" | sha256sum -c --quiet - && \
	  grep -q 'version:"$(MERMAID_VERSION)"' theme/mermaid.min.js && \
	  echo "theme/mermaid.min.js is mermaid $(MERMAID_VERSION)"

clean:
	rm -rf $(VENV) example-site/_site example-site/.site-builder tests/output
