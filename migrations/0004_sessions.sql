-- Sessions of rooms and the participants in them (docs/ROOMS.md). A session starts with the
-- first participant who joins a room and ends with the last who leaves it (or when it is
-- ended: POST /v2/sessions/end, a participant's endRoom, autoCloseConfig.duration). The live
-- state is the room server's; these rows are what it wrote, for the REST API and for ops.

-- Rooms can be deactivated (POST /v2/rooms/deactivate, autoCloseConfig session-end-and-deactivate):
-- disabled, with the time it happened. Enabling the room again clears it.
ALTER TABLE rooms ADD COLUMN deactivated_at timestamptz;

CREATE TABLE sessions (
    id          text PRIMARY KEY,
    room_id     text NOT NULL REFERENCES rooms (id),
    started_at  timestamptz NOT NULL,
    ended_at    timestamptz,
    created_at  timestamptz NOT NULL DEFAULT now()
);
-- At most one ongoing session per room.
CREATE UNIQUE INDEX sessions_one_ongoing_per_room ON sessions (room_id) WHERE ended_at IS NULL;
CREATE INDEX sessions_by_room ON sessions (room_id, started_at DESC);

-- A participant of a session, once however often they left and came back.
CREATE TABLE session_participants (
    session_id      text NOT NULL REFERENCES sessions (id),
    participant_id  text NOT NULL,
    name            text NOT NULL DEFAULT '',
    first_joined_at timestamptz NOT NULL,
    PRIMARY KEY (session_id, participant_id)
);

-- The time log: one row per stay, from a join to its leave (ended_at NULL while still in).
CREATE TABLE participant_time_logs (
    id              bigserial PRIMARY KEY,
    session_id      text NOT NULL,
    participant_id  text NOT NULL,
    started_at      timestamptz NOT NULL,
    ended_at        timestamptz,
    -- The leave reason (1001 WEBSOCKET_DISCONNECTED, 1002 REMOVE_PEER, …; docs/SIGNALING.md).
    leave_reason    integer,
    FOREIGN KEY (session_id, participant_id) REFERENCES session_participants (session_id, participant_id)
);
CREATE INDEX participant_time_logs_by_participant ON participant_time_logs (session_id, participant_id, started_at);
-- A participant has at most one open stay.
CREATE UNIQUE INDEX participant_time_logs_one_open ON participant_time_logs (session_id, participant_id) WHERE ended_at IS NULL;

-- Room webhooks share the outbox with job webhooks: job_id is NULL for them, session_id says
-- which session they belong to.
ALTER TABLE webhook_deliveries ADD COLUMN session_id text;

-- For ops (docs/OPERATIONS.md): who is in which room now.
CREATE VIEW active_participants AS
SELECT s.room_id, l.session_id, l.participant_id, p.name, l.started_at AS joined_at
FROM participant_time_logs l
JOIN sessions s ON s.id = l.session_id
JOIN session_participants p ON p.session_id = l.session_id AND p.participant_id = l.participant_id
WHERE l.ended_at IS NULL AND s.ended_at IS NULL
ORDER BY s.room_id, l.started_at;
