"""`packetbench view`: a read-only web viewer of runs, their truth and the model's output.

A run opens as its overview (headline rates with intervals, the worst slices first), a list
of its documents (filterable, worst first) and, per document, its pages with the box of
every true value drawn over them in the colour of the run's outcome for that field.
`benchmark.viewer.source` reads a run (its results database, paged through DuckDB; or, for a
run not scored yet, its records, each document scored when it is opened),
`benchmark.viewer.document` builds one document's view, `benchmark.viewer.pages` renders
and caches page images, `benchmark.viewer.app` serves it all on 127.0.0.1 (Starlette under
uvicorn) and `benchmark.viewer.export` writes the same app as static files.
"""
