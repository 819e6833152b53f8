import Foundation

/// WebVTT text (https://www.w3.org/TR/webvtt1/), as transcripts and HLS caption segments write
/// it: timestamps, escaping, and cues that name their speaker.
public enum WebVTT {
    /// The first line of every WebVTT file (§4.1).
    public static let signature = "WEBVTT"

    /// hh:mm:ss.mmm (WebVTT §4.2.1), or with a comma for SubRip; negative and non-finite times
    /// are 0, and times past `latest` are `latest` (a time from outside never overflows).
    public static func timestamp(_ seconds: Double, separator: Character = ".") -> String {
        let milliseconds = Int((min(latest, max(0, seconds.isFinite ? seconds : 0)) * 1000).rounded())
        let (hours, rest) = milliseconds.quotientAndRemainder(dividingBy: 3_600_000)
        let (minutes, rest2) = rest.quotientAndRemainder(dividingBy: 60_000)
        let (secs, millis) = rest2.quotientAndRemainder(dividingBy: 1000)
        return "\(twoDigits(hours)):\(twoDigits(minutes)):\(twoDigits(secs))\(separator)\(String(millis + 1000).dropFirst())"
    }

    /// A cue: an identifier line (if any), its timing, and its text in a voice span naming the
    /// speaker, `<v Name>` (§4.2.2). A cue lasts at least 0.1 s.
    public static func cue(identifier: String?, start: Double, end: Double, voice: String, text: String) -> String {
        var cue = identifier.map { oneLine($0) + "\n" } ?? ""
        cue += "\(timestamp(start)) --> \(timestamp(max(end, start + 0.1)))\n"
        cue += "<v \(escape(voice))>\(escape(text))</v>\n\n"
        return cue
    }

    /// Text on one line, with `&`, `<` and `>` escaped (§4.2.2).
    public static func escape(_ text: String) -> String {
        oneLine(text).replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// A cue's text may not hold a blank line or "-->" (it would end or start a cue).
    public static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ").replacingOccurrences(of: "-->", with: "->")
    }

    /// About 31 years.
    public static let latest = 1e9

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
