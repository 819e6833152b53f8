-- Jobs: recordings, HLS streams and livestreams (docs/JOBS.md). PostgreSQL is the coordination
-- engine: workers claim jobs with FOR UPDATE SKIP LOCKED and hold leases; LISTEN/NOTIFY wakes them.

CREATE TYPE job_kind AS ENUM ('recording', 'hls', 'livestream');
CREATE TYPE job_state AS ENUM ('STARTING', 'STARTED', 'PLAYABLE', 'STOPPING', 'STOPPED', 'FAILED');

CREATE TABLE jobs (
    id               uuid PRIMARY KEY,
    kind             job_kind NOT NULL,
    room_id          text NOT NULL,
    session_id       text NOT NULL,
    state            job_state NOT NULL DEFAULT 'STARTING',
    config           jsonb NOT NULL DEFAULT '{}',
    -- Livestream destinations, [{"url": ..., "streamKey": ...}].
    outputs          jsonb NOT NULL DEFAULT '[]',
    webhook_url      text,
    aws_dir_path     text,
    -- The worker holding the job, until lease_expires_at; a heartbeat extends the lease.
    worker_id        text,
    lease_expires_at timestamptz,
    -- Each claim by a worker is an attempt; a takeover after a lost lease is attempt + 1.
    attempts         integer NOT NULL DEFAULT 0,
    stop_requested_at timestamptz,
    error_code       integer,
    error_message    text,
    -- The files each attempt wrote: [{"attempt": 1, "path": ..., "url": ..., "size": ..., "duration": ...}].
    parts            jsonb NOT NULL DEFAULT '[]',
    -- The latest progress a worker reported: media time, fps, bitrate, bytes, frames.
    progress         jsonb,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    started_at       timestamptz,
    playable_at      timestamptz,
    stopped_at       timestamptz,
    deleted_at       timestamptz
);

-- At most one active job of each kind per room, enforced here rather than by code alone.
CREATE UNIQUE INDEX jobs_one_active_per_room_and_kind ON jobs (room_id, kind)
    WHERE state IN ('STARTING', 'STARTED', 'PLAYABLE', 'STOPPING');
-- What workers scan for work.
CREATE INDEX jobs_active ON jobs (created_at) WHERE state IN ('STARTING', 'STARTED', 'PLAYABLE', 'STOPPING');
CREATE INDEX jobs_by_room ON jobs (room_id, kind, created_at);

-- Every state change, and every takeover, in order. Append-only.
CREATE TABLE job_events (
    id          bigserial PRIMARY KEY,
    job_id      uuid NOT NULL REFERENCES jobs (id),
    from_state  job_state,
    to_state    job_state NOT NULL,
    attempt     integer NOT NULL,
    worker_id   text,
    detail      text,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX job_events_by_job ON job_events (job_id, id);

CREATE FUNCTION job_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'job_events is append-only';
END;
$$;
CREATE TRIGGER job_events_append_only BEFORE UPDATE OR DELETE ON job_events
    FOR EACH STATEMENT EXECUTE FUNCTION job_events_append_only();

-- The webhook outbox: a row per (event, destination), delivered in sequence per destination.
CREATE TABLE webhook_deliveries (
    id              uuid PRIMARY KEY,
    sequence        bigserial NOT NULL,
    job_id          uuid REFERENCES jobs (id),
    url             text NOT NULL,
    event           text NOT NULL,
    payload         jsonb NOT NULL,
    attempts        integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    -- A dispatcher that took the row holds it until then.
    locked_until    timestamptz,
    delivered_at    timestamptz,
    last_error      text,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (url, sequence) WHERE delivered_at IS NULL;

ALTER TABLE rooms ADD COLUMN session_id text;

-- For ops (docs/OPERATIONS.md).
CREATE VIEW active_jobs AS
SELECT id, kind, room_id, state, worker_id, attempts, lease_expires_at, lease_expires_at < now() AS lease_expired,
       (progress ->> 'mediaTime')::double precision AS media_time, (progress ->> 'fps')::double precision AS fps,
       (progress ->> 'bytes')::bigint AS bytes, created_at, updated_at
FROM jobs
WHERE state IN ('STARTING', 'STARTED', 'PLAYABLE', 'STOPPING') AND deleted_at IS NULL
ORDER BY created_at;

CREATE VIEW job_history AS
SELECT e.id AS event_id, e.job_id, j.kind, j.room_id, e.from_state, e.to_state, e.attempt, e.worker_id, e.detail, e.created_at
FROM job_events e JOIN jobs j ON j.id = e.job_id
ORDER BY e.id;

CREATE VIEW webhook_backlog AS
SELECT url, count(*) AS pending, min(created_at) AS oldest, max(attempts) AS most_attempts
FROM webhook_deliveries
WHERE delivered_at IS NULL
GROUP BY url;
