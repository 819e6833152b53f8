/// What an engine heard in an utterance: text with times in seconds from the utterance's start.
public struct RecognizedSegment: Sendable, Equatable, Codable {
    public var start: Double
    public var end: Double
    public var text: String
    /// Word timings, when the engine gives them (Whisper does).
    public var words: [RecognizedWord]

    public init(start: Double, end: Double, text: String, words: [RecognizedWord] = []) {
        self.start = start
        self.end = end
        self.text = text
        self.words = words
    }

    /// The same segment moved by `offset` seconds (from the utterance's clock to the caller's).
    public func shifted(by offset: Double) -> RecognizedSegment {
        RecognizedSegment(start: start + offset, end: end + offset, text: text,
                          words: words.map { RecognizedWord(start: $0.start + offset, end: $0.end + offset, word: $0.word, probability: $0.probability) })
    }
}

/// One word and when it was said.
public struct RecognizedWord: Sendable, Equatable, Codable {
    public var start: Double
    public var end: Double
    public var word: String
    /// The engine's confidence in [0, 1], when it gives one.
    public var probability: Double?

    public init(start: Double, end: Double, word: String, probability: Double? = nil) {
        self.start = start
        self.end = end
        self.word = word
        self.probability = probability
    }
}
