-- Many machines (docs/CLUSTER.md): every `revue serve` is a node; each room's live session is
-- placed on one node, and any node tells a client where its room lives.

-- A node: where clients reach it, and its load, written by its heartbeat every 2 s. A node
-- whose heartbeat is older than 10 s is dead, whatever its state says.
CREATE TABLE nodes (
    id            text PRIMARY KEY,
    -- The base of its HTTP URLs (signalling, WHIP, join pages, REST), as clients reach it.
    url           text NOT NULL,
    -- Its WebRTC media address (IP:port of its one UDP port, as announced in ICE candidates).
    rtc_address   text NOT NULL DEFAULT '',
    region        text NOT NULL DEFAULT '',
    cores         integer NOT NULL DEFAULT 1,
    -- ACTIVE takes new rooms; DRAINING keeps its rooms until they end or its deadline, and takes none.
    state         text NOT NULL DEFAULT 'ACTIVE' CONSTRAINT nodes_state_check CHECK (state IN ('ACTIVE', 'DRAINING')),
    -- Rooms placed here at most (the placement's load limit).
    max_rooms     integer NOT NULL DEFAULT 1000,
    rooms         integer NOT NULL DEFAULT 0,
    participants  integer NOT NULL DEFAULT 0,
    tracks        integer NOT NULL DEFAULT 0,
    -- The process's CPU over the last heartbeat, in cores.
    cpu           real NOT NULL DEFAULT 0,
    started_at    timestamptz NOT NULL DEFAULT now(),
    heartbeat_at  timestamptz NOT NULL DEFAULT now(),
    -- Set when it drains: by then its rooms are moved.
    drain_deadline timestamptz
);

-- Where a room's live session is: one row per room while it lives on a node. Placing is one
-- statement (INSERT … ON CONFLICT), so two nodes racing for a room agree; a row whose node is
-- dead is taken over by the next placement, and swept.
CREATE TABLE room_placements (
    room_id    text PRIMARY KEY REFERENCES rooms (id) ON DELETE CASCADE,
    node_id    text NOT NULL REFERENCES nodes (id) ON DELETE CASCADE,
    placed_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX room_placements_by_node ON room_placements (node_id);

-- Which node a session ran on, for ops and for ending the sessions of a node that died.
ALTER TABLE sessions ADD COLUMN node_id text;
CREATE INDEX sessions_ongoing_by_node ON sessions (node_id) WHERE ended_at IS NULL;

COMMENT ON TABLE nodes IS 'Room server nodes (revue serve), their addresses and load; dead after 10 s without a heartbeat.';
COMMENT ON TABLE room_placements IS 'The node each live room is placed on.';
