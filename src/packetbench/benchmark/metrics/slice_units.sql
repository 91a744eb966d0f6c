-- Numerator and denominator of the headline rates per document and slice
-- (slice_unit_rows.sql), in order.
SELECT * FROM slice_unit_rows
ORDER BY run_id, dimension, slice, metric, packet_id, doc_id
