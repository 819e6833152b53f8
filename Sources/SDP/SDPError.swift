/// Why a text could not be read as SDP (RFC 8866). The description names the line (1-based) and
/// what is wrong with it; `debugDescription` adds the line's text.
public struct SDPError: Error, Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The 1-based line number, or 0 when the problem is the description as a whole.
    public let line: Int
    /// What is wrong, in words.
    public let problem: String
    /// The offending line, shortened, for debugging only.
    let text: String

    init(line: Int, _ problem: String, text: Substring = "") {
        self.line = line
        self.problem = problem
        self.text = text.count > 120 ? String(text.prefix(120)) + "…" : String(text)
    }

    /// `SDP line N: problem`.
    public var description: String {
        line > 0 ? "SDP line \(line): \(problem)" : "SDP: \(problem)"
    }

    /// The description with the offending line.
    public var debugDescription: String {
        text.isEmpty ? description : "\(description) [\(text)]"
    }
}
