/// `a=group:<semantics> <mid> …` (RFC 5888 §5), such as `BUNDLE 0 1 2` (RFC 9143 §7.1).
public struct MediaGroup: Sendable, Equatable {
    /// `BUNDLE`, `LS`, …
    public var semantics: String
    /// The grouped mids, in order.
    public var mids: [String]

    /// A group.
    public init(semantics: String, mids: [String]) {
        self.semantics = semantics
        self.mids = mids
    }

    var text: String { ([semantics] + mids).joined(separator: " ") }
}
