"""A packet and its truth as every reader takes them: the packet folders and their files
(`packets`, one `PacketFiles` a folder; `documents`, a packet's documents for the audit), CSV
reading (`csvread`), the universe of values a packet shows (`universe`), value normalisation
(`normalize`), truth validation (`validate`) and schema namespaces (`namespaces`).

Below the audit and the benchmark: it imports `core` alone (and the generator's document
types, which a namespace scores against).
"""
