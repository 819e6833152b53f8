-- A recording's or HLS stream's transcript (docs/TRANSCRIPTION.md): what was asked for and where
-- it is. NULL when none was asked for. Its state is apart from the job's: a failed transcript
-- never fails the recording.
ALTER TABLE jobs ADD COLUMN transcription jsonb;

COMMENT ON COLUMN jobs.transcription IS
    'The transcript asked for and its state: {"request": {"modelId", "modelConfig", "keepSpeakerAudio"}, "state": "TRANSCRIPTION_WAITING"|"TRANSCRIPTION_STARTED"|"TRANSCRIPTION_STOPPED"|"TRANSCRIPTION_FAILED", "error", "segments"}; the files are parts of kind "transcript".';
