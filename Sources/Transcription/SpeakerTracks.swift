import Foundation

/// The per-participant audio a recording keeps for its transcript: `speakers.json` in a
/// directory, naming each participant's WAV file (16 kHz mono, 16-bit) and where its first
/// sample falls on the recording's clock. Written by `SpeakerTracksWriter` while the job records,
/// read by `revue transcribe --speakers`.
public struct SpeakerTracks: Sendable, Equatable, Codable {
    public struct Speaker: Sendable, Equatable, Codable {
        public var participantId: String
        public var name: String
        /// The WAV file's name in the directory.
        public var file: String
        /// Seconds on the recording's clock of the file's first sample.
        public var offset: Double
    }

    public static let manifestName = "speakers.json"
    public var speakers: [Speaker]

    public init(speakers: [Speaker] = []) { self.speakers = speakers }

    /// The speakers of the manifest at `path`, as files to transcribe.
    public static func load(_ path: String) throws(TranscriptionError) -> [SpeakerAudio] {
        let what = "speaker manifest"
        return try SpeakerManifest.decode(SpeakerTracks.self, at: path, what: what).speakers.map { speaker throws(TranscriptionError) in
            SpeakerAudio(path: try SpeakerManifest.file(speaker.file, beside: path, what: what), participantId: speaker.participantId,
                         participantName: speaker.name, offset: SpeakerManifest.offset(speaker.offset))
        }
    }
}
