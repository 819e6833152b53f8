/// `a=msid-semantic: WMS [<stream id> …]`: a session-level line from the plan-B era that
/// Chromium and aiortc still write. Kept for round trips; unified plan uses `a=msid`.
public struct MSIDSemantic: Sendable, Equatable {
    /// `WMS`.
    public var semantic: String
    /// Stream ids, or `*`.
    public var identifiers: [String]

    /// An msid-semantic line.
    public init(semantic: String = "WMS", identifiers: [String] = []) {
        self.semantic = semantic
        self.identifiers = identifiers
    }

    var text: String { ([semantic] + identifiers).joined(separator: " ") }
}
