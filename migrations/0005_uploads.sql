-- Uploads to object storage (docs/STORAGE.md). A recording with awsDirPath goes to the server's
-- bucket, one with preSignedUrl to that URL, when it finishes. The state of each upload lives
-- here, so a worker that dies mid-upload leaves the upload id and the parts already stored, and
-- the job's next holder sends only the parts that are missing.

-- The presigned PUT URL a start request gave (a capability: the API never echoes it).
ALTER TABLE jobs ADD COLUMN pre_signed_url text;

CREATE TABLE uploads (
    job_id       uuid NOT NULL REFERENCES jobs (id),
    -- The local file, relative to the storage directory (a part's path).
    part_path    text NOT NULL,
    -- 'bucket': the server's bucket at object_key; 'presigned': the job's pre_signed_url.
    target       text NOT NULL CHECK (target IN ('bucket', 'presigned')),
    object_key   text,
    state        text NOT NULL DEFAULT 'uploading' CHECK (state IN ('uploading', 'complete', 'failed')),
    -- The multipart upload in progress, and the part size it was cut with.
    upload_id    text,
    part_size    integer,
    size         bigint,
    etag         text,
    error        text,
    -- How many workers have worked on it.
    attempts     integer NOT NULL DEFAULT 0,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    completed_at timestamptz,
    PRIMARY KEY (job_id, part_path, target)
);

-- Every part the server has stored, with its checked ETag. Parts belong to one upload id: an
-- upload that had to start over does not reuse the parts of the old one.
CREATE TABLE upload_parts (
    job_id      uuid NOT NULL,
    part_path   text NOT NULL,
    target      text NOT NULL,
    upload_id   text NOT NULL,
    part_number integer NOT NULL CHECK (part_number BETWEEN 1 AND 10000),
    etag        text NOT NULL,
    size        bigint NOT NULL,
    worker_id   text,
    uploaded_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (job_id, part_path, target, upload_id, part_number),
    FOREIGN KEY (job_id, part_path, target) REFERENCES uploads (job_id, part_path, target) ON DELETE CASCADE
);

COMMENT ON TABLE uploads IS 'Uploads of finished parts to object storage; a taken-over job resumes them from upload_parts.';
