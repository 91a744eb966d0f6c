# Developer shortcuts; CI runs .ci/run (the README's test command).
PY ?= python

.PHONY: install check lint types schemas schemas-check suite test bench

install:
	$(PY) -m pip install -e ".[test]"

check: lint types schemas-check

lint:
	ruff check .

types:
	mypy

schemas:
	$(PY) _build_schemas.py

schemas-check:
	$(PY) _build_schemas.py --check

# Regenerate the canonical suite (packets/) and its lock after a change that alters output.
suite:
	$(PY) -m generator.suite

test:
	pytest -n auto

bench:
	$(PY) benchmarks/generate.py
