# reportgen — every set-up step lives here, so a fresh clone needs only `make report` or `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

TOPIC ?= Renewable energy
REPORT_LANG ?= en
SECTIONS ?= 5
CORPUS ?=
export TOPIC REPORT_LANG SECTIONS CORPUS

# Fonts for every script, faster PDF font subsetting, and poppler for the tests.
DEB_PACKAGES := fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji libharfbuzz-subset0 poppler-utils

.PHONY: setup system-deps report test graph clean

setup: $(VENV)/.installed system-deps

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $@

# Idempotent: installs only what is missing; as root it installs, otherwise
# it prints the one apt-get line to run and carries on with what is there.
system-deps:
	@command -v dpkg-query >/dev/null || { echo "not a Debian system: install fonts-noto, poppler and harfbuzz-subset yourself"; exit 0; }; \
	missing=""; \
	for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	[ -z "$$missing" ] && exit 0; \
	if [ "$$(id -u)" = 0 ]; then \
	  echo "installing Debian packages:$$missing"; \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; } \
	    || echo "could not install$$missing; carrying on with what is there"; \
	else \
	  echo "missing Debian packages; run:  sudo apt-get install -y$$missing"; \
	fi

report: setup
	$(BIN)/reportgen report "$$TOPIC" --lang "$$REPORT_LANG" --sections "$$SECTIONS" $${CORPUS:+--corpus "$$CORPUS"}

test: setup
	$(BIN)/pytest

graph: setup
	@$(BIN)/reportgen graph

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
