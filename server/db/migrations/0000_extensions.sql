-- Trigram matching for substring search on patient names and email.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
