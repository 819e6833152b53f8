-- Who in a room may start and stop its recordings, HLS streams and livestreams over signalling
-- (docs/SECURITY.md): 'moderators' (a token with allow_mod, the default) or 'everyone'. The
-- REST API's callers are not affected: they hold the API secret.
ALTER TABLE rooms
    ADD COLUMN participant_jobs text NOT NULL DEFAULT 'moderators'
        CONSTRAINT rooms_participant_jobs_check CHECK (participant_jobs IN ('moderators', 'everyone'));

COMMENT ON COLUMN rooms.participant_jobs IS 'Who may start and stop jobs from inside the room: moderators (allow_mod) or everyone.';
