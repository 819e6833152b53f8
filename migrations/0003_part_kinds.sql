-- Each part names its kind ("mp4" or "hls"), so no code guesses it from a file name. Parts that
-- earlier versions wrote are given theirs here: an MP4 part's path ends in .mp4.
UPDATE jobs
SET parts = (
    SELECT coalesce(jsonb_agg(
               CASE WHEN part ? 'kind' THEN part
                    ELSE part || jsonb_build_object('kind', CASE WHEN part ->> 'path' LIKE '%.mp4' THEN 'mp4' ELSE 'hls' END)
               END ORDER BY position), '[]'::jsonb)
    FROM jsonb_array_elements(jobs.parts) WITH ORDINALITY AS element(part, position))
WHERE jsonb_array_length(parts) > 0;

COMMENT ON COLUMN jobs.parts IS
    'The parts each attempt wrote: [{"attempt", "kind": "mp4"|"hls", "path", "status", "size", "duration", "width", "height"}].';
