import Foundation

/// Everything one run of the pipeline needs: the source, the config, the outputs and where to
/// report. A worker writes it to a file only its user can read (mode 0600) and starts
/// `revue record --spec FILE`, so secrets such as stream keys never appear on a command line;
/// `revue record` with flags builds the same value.
public struct PipelineSpec: Sendable, Codable, Equatable {
    /// Which job and attempt this run is, for logs.
    public struct JobIdentity: Sendable, Codable, Equatable {
        public var id: String
        public var kind: JobKind
        public var attempt: Int
        /// The job's room (a fixture room's too, whose source does not name it).
        public var roomID: String?

        public init(id: String, kind: JobKind, attempt: Int, roomID: String? = nil) {
            self.id = id
            self.kind = kind
            self.attempt = attempt
            self.roomID = roomID
        }
    }

    public var source: MediaSourceSpec
    public var config: RecordingConfig
    public var outputs: [OutputSpec]
    public var job: JobIdentity?
    /// A file the run writes its events to (started, playable, progress), a JSON line each
    /// (`revue record --events FILE`).
    public var eventsPath: String?
    /// A descriptor the run writes its events to: the pipe its worker reads (descriptor 3).
    public var eventsDescriptor: Int32?
    /// The run exits when this process (its worker) dies.
    public var parentPID: Int32?
    /// The run reads its worker's controls (`JobControl` lines: pause, resume, layout,
    /// destinations) on its standard input.
    public var controlsOnStandardInput: Bool?
    /// HLS outputs also go to this bucket, live (docs/STORAGE.md). It holds the storage's
    /// secret, which is why the spec file is readable only by its user.
    public var bucketMirror: BucketMirrorSpec?
    /// Keep each participant's own audio in this directory for a transcript
    /// (`SpeakerTracksWriter`; docs/TRANSCRIPTION.md).
    public var speakerAudio: String?
    /// A live transcription job's model and settings (the job's kind is `transcription`).
    public var liveTranscription: TranscriptionRequest?
    /// Where a live transcription writes the transcript of what it heard when it ends.
    public var liveTranscript: String?
    /// Where the composite's thumbnails go (`config.thumbnails`): a JPEG each interval and
    /// `latest.jpg`.
    public var thumbnailDirectory: String?
    /// Receive every camera at its top simulcast layer instead of the layer its tile needs
    /// (`LayerChooser`): the reference `bench/live-record --simulcast` measures against.
    public var topCameraLayers: Bool?
    /// The run takes other jobs of its room whose composite is the same (`sharesComposite(with:)`)
    /// as they come, on its standard input (`JobRunCommand.attach`), and lets each go on its own
    /// (`JobRunCommand.detach`): one subscription, decode, composite and encode for them all
    /// (issue 26 item 7, docs/PIPELINE.md "One composite for many jobs").
    public var hostsJobs: Bool?

    public init(source: MediaSourceSpec, config: RecordingConfig, outputs: [OutputSpec], job: JobIdentity? = nil,
                eventsPath: String? = nil, parentPID: Int32? = nil, bucketMirror: BucketMirrorSpec? = nil, speakerAudio: String? = nil)
    {
        self.speakerAudio = speakerAudio
        self.source = source
        self.config = config
        self.outputs = outputs
        self.job = job
        self.eventsPath = eventsPath
        self.parentPID = parentPID
        self.bucketMirror = bucketMirror
    }

    /// The same spec without secrets (stream keys, the storage's secret key), for logs and the run's `configured` event.
    public var redacted: PipelineSpec {
        var copy = self
        copy.outputs = outputs.map(\.redacted)
        copy.source = source.redacted
        copy.config.e2ee = config.e2ee?.redacted
        if let mirror = bucketMirror { copy.bucketMirror?.storage = mirror.storage.redacted }
        return copy
    }

    /// Writes the spec to a new file readable only by this user (mode 0600, created
    /// exclusively so an existing file, or a link planted in its place, is never written through).
    public func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(self)
        unlink(path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw SpecError("cannot create \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let written = data.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        guard written == data.count else { throw SpecError("cannot write \(path): \(String(cString: strerror(errno)))") }
    }

    /// Reads a spec file written by `write(to:)`, or standard input for `-`.
    public init(contentsOf path: String) throws(SpecError) {
        let data: Data?
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            data = FileManager.default.contents(atPath: path)
        }
        guard let data else { throw SpecError("cannot read the spec file \(path)") }
        do {
            self = try JSONDecoder().decode(PipelineSpec.self, from: data)
        } catch {
            throw SpecError("the spec file \(path) is not a pipeline spec: \(error)")
        }
    }
}
