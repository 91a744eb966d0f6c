# Developer shortcuts; CI runs .ci/run (the README's test command).
PY ?= python

.PHONY: install check lint format types schemas schemas-check docs docs-check site suite test test-all bench

install:
	$(PY) -m pip install -e ".[test]"

check: lint types schemas-check docs-check

lint:
	ruff check .
	ruff format --check .

format:
	ruff format .

types:
	mypy

schemas:
	$(PY) _build_schemas.py

schemas-check:
	$(PY) _build_schemas.py --check

# The generated reference pages (docs/reference/), from the commands' help, the registries
# and the SQL views.
docs:
	$(PY) _build_docs.py

docs-check:
	$(PY) _build_docs.py --check

# The docs site into site/, every link and anchor checked (as tests/test_docs.py builds it).
site:
	$(PY) -m mkdocs build --strict

# Regenerate the canonical suite (packets/) and its lock after a change that alters output.
suite:
	$(PY) -m packetbench.generator.suite

# The fast tier: every module; the seed sweeps a few seeds wide; without the end-to-end
# runs, the sweeps that need their width, and the slow tests (a few minutes on 2 cores).
test:
	PACKETBENCH_TESTS=fast pytest -n auto -m "not slow and not sweep and not e2e"

# Everything, as CI runs it.
test-all:
	pytest -n auto

bench:
	$(PY) benchmarks/generate.py
