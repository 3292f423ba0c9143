-- SPDX-License-Identifier: MIT
-- Results are stored as json, not jsonb: the engine's document comes back exactly as the
-- worker wrote it (key order and number spelling), and nothing queries inside results.
-- Rows written before this migration keep jsonb's normalised form.
ALTER TABLE jobs ALTER COLUMN result TYPE json USING result::json;
