import Foundation

/// Who said what, when: the transcript of a recording, a stream or a file. Times are seconds on
/// the recording's clock (0 is its first frame). `transcript.json` is this, encoded.
public struct Transcript: Sendable, Equatable, Codable {
    /// One speaker's stretch of text.
    public struct Segment: Sendable, Equatable, Codable {
        public var participantId: String
        public var participantName: String
        public var start: Double
        public var end: Double
        public var text: String
        public var words: [RecognizedWord]

        public init(participantId: String, participantName: String, start: Double, end: Double, text: String, words: [RecognizedWord] = []) {
            self.participantId = participantId
            self.participantName = participantName
            self.start = start
            self.end = end
            self.text = text
            self.words = words
        }
    }

    /// The engine and model ("faster-whisper 1.2.1, tiny.en").
    public var engine: String
    public var modelId: String
    public var language: String
    public var segments: [Segment]

    public init(engine: String, modelId: String, language: String = "en", segments: [Segment] = []) {
        self.engine = engine
        self.modelId = modelId
        self.language = language
        self.segments = segments
    }

    /// Adds an engine's segments for one speaker, moved onto the transcript's clock.
    public mutating func append(_ recognized: [RecognizedSegment], offset: Double, participantId: String, participantName: String) {
        for segment in recognized {
            let text = segment.text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { continue }
            let moved = segment.shifted(by: offset)
            segments.append(Segment(participantId: participantId, participantName: participantName, start: moved.start,
                                    end: moved.end, text: text, words: moved.words))
        }
    }

    /// Segments in the order they were said (speakers interleaved), stable for equal starts.
    public var ordered: [Segment] {
        segments.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
    }

    /// All the text, in order, for word error rates and summaries.
    public var plainText: String { ordered.map(\.text).joined(separator: " ") }
}
