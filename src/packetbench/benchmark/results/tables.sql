-- The results database of one run (RUN/results.duckdb), written by `packetbench score`.
-- Every table carries run_id so the tables of many runs can be stacked (benchmark.results.query).

CREATE TABLE meta (
    key VARCHAR PRIMARY KEY,
    value VARCHAR
);

-- One row: the run's configuration, as run.json records it.
CREATE TABLE runs (
    run_id VARCHAR PRIMARY KEY,
    provider VARCHAR,
    model VARCHAR,
    simulator BOOLEAN,
    label VARCHAR,
    parameters JSON,            -- the provider's parameters (sim: profile and seed)
    config JSON,                -- run.json without its packets list
    toolkit_version VARCHAR,
    git_commit VARCHAR,
    git_dirty BOOLEAN,
    packets_dir VARCHAR,
    status VARCHAR,             -- running | complete (as run.json says)
    packets INTEGER,
    documents_expected INTEGER,
    invalid_policy VARCHAR      -- exclude | salvage: what scoring did with schema-invalid outputs
);

-- One row per document the run covers, scored or not.
CREATE TABLE documents (
    run_id VARCHAR,
    packet_id VARCHAR,
    doc_id VARCHAR,
    doc_type VARCHAR,
    schema_name VARCHAR,
    tier VARCHAR,
    format VARCHAR,
    superseded_by VARCHAR,
    status VARCHAR,             -- scored | missing | error | invalid
    record_status VARCHAR,      -- the extraction record's status (null when missing)
    reason VARCHAR,             -- why the document was excluded (null when scored)
    attempts INTEGER,
    latency_s DOUBLE,
    input_tokens BIGINT,
    output_tokens BIGINT,
    reasoning_tokens BIGINT,
    cost_usd DOUBLE,
    finish_reason VARCHAR,
    gt_fields INTEGER, correct INTEGER, wrong INTEGER, omitted INTEGER,
    gt_null_fields INTEGER, abstained INTEGER, answered INTEGER,
    invented_records INTEGER, dropped_records INTEGER,
    numbers_checked INTEGER, strings_checked INTEGER,
    numbers_hallucinated INTEGER, strings_hallucinated INTEGER,                  -- packet universe
    numbers_hallucinated_document INTEGER, strings_hallucinated_document INTEGER, -- document universe
    claims INTEGER,
    supported INTEGER, contradicted INTEGER, stale INTEGER, overreach INTEGER, unlinked INTEGER,
    consistency_checks INTEGER, consistency_passed INTEGER, consistency_failed INTEGER,
    consistency_skipped INTEGER,
    keys_emitted INTEGER,       -- keys the output wrote where its schema describes an object
    invented_keys INTEGER,      -- of them, keys its schema lacks
    unfit_leaves INTEGER,       -- leaves of the wrong type or outside their code list
    salvaged BOOLEAN,           -- an invalid output scored on the leaves that fit (--invalid salvage)
    PRIMARY KEY (run_id, packet_id, doc_id)
);

-- One row per leaf of a scored document's truth (the field view, recall side).
CREATE TABLE fields (
    run_id VARCHAR,
    packet_id VARCHAR,
    doc_id VARCHAR,
    path VARCHAR,
    kind VARCHAR,
    field_class VARCHAR,        -- table (inside a list) | form
    populated BOOLEAN,          -- the truth holds a value here
    outcome VARCHAR,            -- correct | wrong | omitted (populated); abstained | answered (null)
    patterns VARCHAR[],         -- ids of the presentation patterns that touched this path
    illegible BOOLEAN           -- the page shows this value only past reading (field truth
                                -- `illegible`; the truth is null: abstention expected)
);

-- One row per emitted value (scores/claims.parquet).
CREATE TABLE claims (
    run_id VARCHAR,
    packet_id VARCHAR,
    doc_id VARCHAR,
    doc_type VARCHAR,
    tier VARCHAR,
    path VARCHAR,
    kind VARCHAR,
    value_class VARCHAR,        -- numbers | strings (how the hallucination rates split values)
    value JSON,
    truth JSON,
    field_class VARCHAR,
    grounded_in VARCHAR,        -- document | packet | none
    hallucinated BOOLEAN,       -- null when the value is not checked
    hallucinated_document BOOLEAN,
    verdict VARCHAR,
    patterns VARCHAR[],         -- ids of the presentation patterns that touched this path
    citation VARCHAR,           -- uncited | wrong_place | right_page | right_box; NULL: the
                                -- run asked for no citations (extract --cite)
    source VARCHAR,             -- where the output holds the value (its own list positions):
                                -- the claim as `packetbench verify` names it
    confidence DOUBLE,          -- the answer's 0-1 confidence in the value (extract
                                -- --confidence); NULL: none asked for, none given or unusable
    guess VARCHAR               -- guess_right | guess_grounded | guess_wrong: a value emitted
                                -- where the page is illegible (never checked: hallucinated is
                                -- NULL); NULL for every other claim
);

-- Internal-consistency flags (scores/documents.parquet: consistency_flags).
CREATE TABLE consistency_flags (
    run_id VARCHAR,
    packet_id VARCHAR,
    doc_id VARCHAR,
    rule VARCHAR,
    path VARCHAR,
    kind VARCHAR,               -- of the checked leaf: money, number, ...
    stated DOUBLE,
    expected DOUBLE
);

-- Presentation patterns applied to each document (manifest_<doc_id>.json).
CREATE TABLE patterns (
    run_id VARCHAR,
    packet_id VARCHAR,
    doc_id VARCHAR,
    pattern_id VARCHAR,
    name VARCHAR,
    phase VARCHAR
);

-- `packetbench verify`'s label of every claim (RUN/judge/<judge_id>/labels.jsonl), one row per
-- claim and judge; empty until a judge labels the run.
CREATE TABLE judge_labels (
    run_id VARCHAR,
    judge_id VARCHAR,           -- the folder under RUN/judge/: <judge>-<model>
    judge VARCHAR,
    model VARCHAR,
    simulator BOOLEAN,
    packet_id VARCHAR,
    doc_id VARCHAR,
    doc_type VARCHAR,
    tier VARCHAR,
    path VARCHAR,               -- the claim's output path (claims.source)
    kind VARCHAR,
    value JSON,
    verdict VARCHAR,            -- the judge's: supported | contradicted | unlinked | overreach | stale
    page INTEGER,               -- the span the judge used (null: none)
    quote VARCHAR
);
