"""Releases: a named, versioned benchmark built from a spec, with a public `dev` split and a
`test` split whose seeds stay private, published as a commitment (docs/release.md).

spec       the release spec (TOML) and the private seed file of the test split
layout     release.json and COMMITMENT: what a release folder holds and how it is read
build      `release build`, `release refresh`, `release publish`
verify     `release verify`: the files against the commitment, and with the seeds regenerated
reading    the few functions through which releases read packets and run folders
matching   whether a run (or an inspect_ai log) was made on a release's packets
export     `release export`: Parquet, one row per document, and a dataset card
"""
