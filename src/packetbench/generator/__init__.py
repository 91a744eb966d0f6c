"""The generator half: worlds, document types, renderers, patterns and truth writers.

It never imports the benchmark half (tests/test_layering.py).
"""
