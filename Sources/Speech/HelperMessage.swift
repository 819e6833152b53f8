import Foundation

/// A line the speech helper writes (docs/TRANSCRIPTION.md, "The helper protocol"). Lines come
/// from another process: every field is checked, and a line that does not parse is an error,
/// never a crash.
enum HelperMessage: Sendable, Equatable {
    case ready(engine: String, engineVersion: String, model: String)
    case result(id: Int, segments: [RecognizedSegment], seconds: Double)
    /// `id` is nil for a failure outside any request (bad settings, no model): the helper exits.
    case error(id: Int?, message: String)

    /// Limits on what one line may hold, well above what Whisper gives for a minute of speech.
    static let maximumSegments = 1_000
    static let maximumWords = 10_000
    static let maximumTextBytes = 100_000

    static func decode(_ line: [UInt8]) throws(SpeechError) -> HelperMessage {
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: Data(line))
        } catch {
            throw SpeechError(.failed, "the speech helper wrote a line that is not its protocol: \(Self.preview(line))")
        }
        switch wire.type {
        case "ready":
            return .ready(engine: wire.engine ?? "unknown", engineVersion: wire.engineVersion ?? "", model: wire.model ?? "")
        case "error":
            return .error(id: wire.id, message: String((wire.message ?? "no message").prefix(2_000)))
        case "result":
            guard let id = wire.id, let segments = wire.segments else {
                throw SpeechError(.failed, "the speech helper wrote a result without its id or segments")
            }
            guard segments.count <= maximumSegments, segments.reduce(0, { $0 + ($1.words?.count ?? 0) }) <= maximumWords,
                  segments.reduce(0, { $0 + $1.text.utf8.count }) <= maximumTextBytes
            else { throw SpeechError(.failed, "the speech helper wrote a result larger than any utterance gives") }
            return .result(id: id, segments: try segments.map { segment throws(SpeechError) in try segment.recognized() },
                           seconds: wire.seconds.map { $0.isFinite ? $0 : 0 } ?? 0)
        default:
            throw SpeechError(.failed, "the speech helper wrote an unknown message type \(Self.preview(Array(wire.type.utf8)))")
        }
    }

    private static func preview(_ line: [UInt8]) -> String {
        let text = String(decoding: line.prefix(120), as: UTF8.self)
        return "\"\(text)\"" + (line.count > 120 ? "…" : "")
    }

    private struct Wire: Decodable {
        var type: String
        var id: Int?
        var engine: String?
        var engineVersion: String?
        var model: String?
        var message: String?
        var seconds: Double?
        var segments: [WireSegment]?
    }

    private struct WireSegment: Decodable {
        var start: Double
        var end: Double
        var text: String
        var words: [WireWord]?

        func recognized() throws(SpeechError) -> RecognizedSegment {
            let (from, to) = try HelperMessage.span(start, end)
            return RecognizedSegment(start: from, end: to, text: text,
                                     words: try (words ?? []).map { word throws(SpeechError) in
                                         let (wordFrom, wordTo) = try HelperMessage.span(word.start, word.end)
                                         let probability = word.probability.flatMap { $0.isFinite ? min(max($0, 0), 1) : nil }
                                         return RecognizedWord(start: wordFrom, end: wordTo, word: word.word, probability: probability)
                                     })
        }
    }

    private struct WireWord: Decodable {
        var start: Double
        var end: Double
        var word: String
        var probability: Double?
    }

    /// A time span from the helper: finite, not negative, within a minute (the longest request),
    /// and in order (an end before its start is taken as the start).
    private static func span(_ start: Double, _ end: Double) throws(SpeechError) -> (Double, Double) {
        guard start.isFinite, end.isFinite, start >= 0, start <= 3_600, end <= 3_600 else {
            throw SpeechError(.failed, "the speech helper gave a time outside the utterance (\(start) to \(end))")
        }
        return (start, max(start, end))
    }
}

/// The request the helper reads: one JSON line, then the samples as 16-bit little-endian PCM.
enum HelperRequest {
    static func transcribe(id: Int, samples: [Float]) -> [UInt8] {
        var bytes = Array(#"{"type":"transcribe","id":\#(id),"sampleRate":\#(Utterance.sampleRate),"samples":\#(samples.count)}"#.utf8)
        bytes.append(0x0A)
        bytes.reserveCapacity(bytes.count + samples.count * 2)
        for sample in samples {
            let value = Int16(max(-32_768, min(32_767, (sample * 32_768).rounded())))
            bytes.append(UInt8(truncatingIfNeeded: value))
            bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        }
        return bytes
    }

    static let quit = Array(#"{"type":"quit"}"#.utf8) + [0x0A]
}
