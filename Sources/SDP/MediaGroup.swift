/// `a=group:<semantics> <mid> …` (RFC 5888 §5), such as `BUNDLE 0 1 2` (RFC 9143 §7.1).
public struct MediaGroup: Sendable, Equatable {
    public var semantics: String
    public var mids: [String]

    public init(semantics: String, mids: [String]) {
        self.semantics = semantics
        self.mids = mids
    }

    var text: String { ([semantics] + mids).joined(separator: " ") }
}
