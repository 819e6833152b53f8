-- The SDK's temporary file storage (uploadBase64File / fetchBase64File, docs/ROOMS.md "Files").
-- A file is kept for a day after its upload, for the room it was uploaded in; the room server
-- deletes expired rows as it takes new ones. Kept in PostgreSQL rather than on one room server's
-- disk, so any room server of the deployment can hand it out.
CREATE TABLE room_files (
    id           uuid PRIMARY KEY,
    room_id      text NOT NULL,
    name         text NOT NULL,
    content      bytea NOT NULL,
    -- The token's participant, when it named one.
    uploaded_by  text,
    created_at   timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL
);
CREATE INDEX room_files_expires ON room_files (expires_at);
