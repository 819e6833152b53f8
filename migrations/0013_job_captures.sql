-- Still pictures of a running job's composite asked through the API (`POST /v2/hls/capture`,
-- `/v2/recordings/capture`, docs/JOBS.md): the requests of the last minute, which the worker
-- hands the running child with its other controls; the child writes each once.
ALTER TABLE jobs ADD COLUMN captures jsonb NOT NULL DEFAULT '[]';

COMMENT ON COLUMN jobs.captures IS 'Capture requests of the last minute: [{"id", "width", "height", "format": "jpg"|"png", "requestedAt"}]; the picture goes to STORAGE/captures/JOB/ID.FORMAT.';
