-- An inventory import (CONTRACT §13) creates the locations its file names that the store does not have: the job
-- lists them by name (GET /jobs/{id} `createdLocations`), a dry run the ones it would create, so a merchant sees
-- a misspelt warehouse before it is made. Appended with each committed batch, each name once (case-insensitive).
ALTER TABLE jobs ADD COLUMN created_locations text[] NOT NULL DEFAULT '{}';
