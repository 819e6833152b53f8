-- Live transcription is a job like the others (docs/TRANSCRIPTION.md): claimed by a worker,
-- taken over when its worker dies, one active per room.
ALTER TYPE job_kind ADD VALUE IF NOT EXISTS 'transcription';
