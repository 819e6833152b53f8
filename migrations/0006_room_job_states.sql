-- Job state changes for the people in the room (docs/ROOMS.md, "Recording states in the room").
-- Each change of a job's state is written here in the transaction that makes it, next to its
-- job_events row and its webhooks, so the room server sends participants the same changes in the
-- same order as the webhooks carry them, whichever worker made them and on whichever machine.
-- The room server reads the rows after the last one it sent (NOTIFY revue_room_job_states wakes
-- it) and deletes rows older than a day.
CREATE TABLE room_job_states (
    id                bigserial PRIMARY KEY,
    room_id           text NOT NULL,
    session_id        text NOT NULL,
    job_id            uuid NOT NULL REFERENCES jobs (id),
    kind              text NOT NULL,
    -- The client state after the change (RECORDING_STARTED, HLS_PLAYABLE, ...).
    status            text NOT NULL,
    -- The webhook event the same change made (recording-started, hls-failed, ...).
    event             text NOT NULL,
    playback_hls_url  text,
    livestream_url    text,
    created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX room_job_states_created ON room_job_states (created_at);
