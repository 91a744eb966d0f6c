"""Helpers the tests share (fixtures stay in the conftest files)."""
