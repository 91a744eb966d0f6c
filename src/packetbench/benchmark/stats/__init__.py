"""Statistics for scores: bootstrap intervals, paired tests, and sample sizes (docs/design.md §8).

Every interval resamples documents (claims within a document are not independent) or, for
the cluster bootstrap, whole packets, with a fixed seed, so the same scores always give the
same intervals.
"""
