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
        let manifest: SpeakerTracks
        do {
            manifest = try JSONDecoder().decode(SpeakerTracks.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw TranscriptionError("cannot read the speaker manifest \(path): \(error)")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return try manifest.speakers.map { speaker throws(TranscriptionError) in
            // A file name only: the manifest cannot point outside its directory.
            guard !speaker.file.contains("/"), !speaker.file.hasPrefix(".") else {
                throw TranscriptionError("the speaker manifest \(path) names a file outside its directory")
            }
            return SpeakerAudio(path: directory + "/" + speaker.file, participantId: speaker.participantId,
                                participantName: speaker.name, offset: speaker.offset.isFinite ? max(0, speaker.offset) : 0)
        }
    }
}
