"""packetbench: synthetic commercial-insurance submission packets with exact ground truth,
and a benchmark of how often LLMs invent values when extracting them."""

__version__ = "0.1.0"
