"""packetbench generator: synthetic submission packets with exact ground truth."""

__version__ = "0.1.0"
