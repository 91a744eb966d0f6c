"""What both halves of packetbench use: errors, the registry idiom, ids and safe reading of
untrusted files, folder locks, the progress display, code lists and document-model leaves,
seeds, executors and their worker pool, the stable JSON writer and the versions that decide a
packet's bytes. It imports neither half (`tests/test_layering.py`)."""
