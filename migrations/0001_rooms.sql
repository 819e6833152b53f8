-- Rooms, as created through POST /v2/rooms (docs/API.md). A room id looks like "abcd-efgh-ijkl";
-- customRoomId is the caller's own name for it and is unique when present.
CREATE TABLE rooms (
    id                text PRIMARY KEY,
    custom_room_id    text UNIQUE,
    disabled          boolean NOT NULL DEFAULT false,
    webhook           jsonb,
    auto_close_config jsonb,
    auto_start_config jsonb,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now()
);

COMMENT ON TABLE rooms IS 'Rooms created through /v2/rooms; jobs refer to them by id.';
