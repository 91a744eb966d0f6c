"""The results database's file name and schema version: what every reader checks before it
reads a run's ``results.duckdb`` (kept apart from the loader, so a reader need not import the
scorer)."""

DB_NAME = "results.duckdb"
# 2: meta holds the documents the run was scored against; 3: fields and claims carry the
# patterns that touched them; 4: documents count keys (emitted, invented) and say which were
# salvaged, meta holds the invalid-output policy; 5: claims carry their citation verdict.
SCHEMA_VERSION = "5"
