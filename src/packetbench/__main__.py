"""`python -m packetbench` runs the packetbench command."""

from packetbench.cli import main

main()
