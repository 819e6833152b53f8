import JobSpec

/// Where a part's transcript goes and what it holds, as the job layer sees it: a directory
/// beside the part (`recordings/J/part-1.transcript`, `hls/J/part-1.transcript`) with one file
/// per format. The Transcription module writes them (`TranscriptFiles`); these names match its.
public enum TranscriptPart {
    public static let formats = ["json", "vtt", "srt", "txt"]
    /// The model a request without `modelId` gets (Speech's `SpeechModel.defaultID`).
    public static let defaultModelID = "whisper-tiny.en"

    public static func fileName(_ format: String) -> String { format == summaryFormat ? summaryName : "transcript.\(format)" }

    /// A summary, when one was asked for and made, is `summary.md` in the same directory; views
    /// list it with the format "summary".
    public static let summaryName = "summary.md"
    public static let summaryFormat = "summary"

    /// The transcript directory of a part: its path without `.mp4` or `.tracks`, then `.transcript`.
    public static func path(beside part: JobPart) -> String {
        var base = part.path
        for suffix in [".mp4", ".tracks"] where base.hasSuffix(suffix) { base.removeLast(suffix.count) }
        return base + ".transcript"
    }

    static func contentType(_ format: String) -> String {
        switch format {
        case "json": "application/json"
        case "vtt": "text/vtt; charset=utf-8"
        case "srt": "application/x-subrip; charset=utf-8"
        case summaryFormat: "text/markdown; charset=utf-8"
        default: "text/plain; charset=utf-8"
        }
    }
}
