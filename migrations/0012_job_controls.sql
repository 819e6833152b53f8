-- Controls on a running job (docs/JOBS.md, "Controls on a running job"): pause and resume a
-- recording, change a job's layout, add and remove a livestream's destinations. The wanted
-- state lives in the row (`paused`, `config`, `outputs`), so an attempt that takes the job over
-- starts as the job is now; `control_version` counts the changes, and the worker hands a
-- running child each version it has not seen.
ALTER TABLE jobs ADD COLUMN paused boolean NOT NULL DEFAULT false;
ALTER TABLE jobs ADD COLUMN control_version integer NOT NULL DEFAULT 0;

COMMENT ON COLUMN jobs.paused IS 'A recording paused through POST /v2/recordings/pause: nothing is written until it is resumed.';
COMMENT ON COLUMN jobs.control_version IS 'Bumped by every control (pause, resume, layout, destinations); the worker sends the running child each new version.';
