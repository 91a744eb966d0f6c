"""``python -m benchmark.harness.stub``: a stub server in a process of its own."""

from benchmark.harness.stub import main

main()
