import Foundation
import Media

/// The files a transcript is written as: `transcript.json`, `.vtt`, `.srt` and `.txt`.
public enum TranscriptFormat: String, Sendable, CaseIterable {
    case json, vtt, srt, txt

    public var fileName: String { "transcript.\(rawValue)" }

    public func render(_ transcript: Transcript) -> String {
        switch self {
        case .json: Self.json(transcript)
        case .vtt: Self.webVTT(transcript)
        case .srt: Self.subRip(transcript)
        case .txt: Self.plain(transcript)
        }
    }

    private static func json(_ transcript: Transcript) -> String {
        var ordered = transcript
        ordered.segments = transcript.ordered
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(ordered) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// WebVTT (https://www.w3.org/TR/webvtt1/): each cue names its speaker with a voice span,
    /// `<v Name>` (§4.2.2); text and names are escaped (§4.2.2: `&`, `<`, `>`).
    private static func webVTT(_ transcript: Transcript) -> String {
        var text = WebVTT.signature + "\n\n"
        for (index, segment) in transcript.ordered.enumerated() {
            text += WebVTT.cue(identifier: "\(index + 1)", start: segment.start, end: segment.end, voice: segment.participantName, text: segment.text)
        }
        return text
    }

    /// SubRip: numbered cues, a comma before the milliseconds, the speaker's name before the text.
    private static func subRip(_ transcript: Transcript) -> String {
        var text = ""
        for (index, segment) in transcript.ordered.enumerated() {
            text += "\(index + 1)\n\(timestamp(segment.start, separator: ",")) --> \(timestamp(max(segment.end, segment.start + 0.1), separator: ","))\n"
            text += "\(oneLine(segment.participantName)): \(oneLine(segment.text))\n\n"
        }
        return text
    }

    private static func plain(_ transcript: Transcript) -> String {
        transcript.ordered.map { "[\(timestamp($0.start, separator: ".").prefix(8))] \(oneLine($0.participantName)): \(oneLine($0.text))\n" }.joined()
    }

    /// hh:mm:ss.mmm (WebVTT) or hh:mm:ss,mmm (SubRip).
    public static func timestamp(_ seconds: Double, separator: Character) -> String { WebVTT.timestamp(seconds, separator: separator) }

    private static func oneLine(_ text: String) -> String { WebVTT.oneLine(text) }
}
