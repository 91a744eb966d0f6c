"""From scores to conclusions: reports, paired comparisons, CI gates and sample-size plans.

Every number comes from the metric views of the results database (`benchmark.results`) and
the statistics of `benchmark.stats`.
"""
