/// The part of `transcript.json` (docs/TRANSCRIPTION.md, "The files") the speech tests read.
public struct TranscriptFile: Decodable, Sendable {
    public struct Segment: Decodable, Sendable {
        public var participantName: String
        public var start: Double
        public var end: Double
        public var text: String
    }

    public var segments: [Segment]
}
