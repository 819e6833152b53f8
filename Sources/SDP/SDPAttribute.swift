/// An attribute kept as written: `a=<name>` (value nil) or `a=<name>:<value>` (RFC 8866 §5.13).
/// Unknown attributes, and the attributes of an `a=ssrc` line, use this form.
public struct SDPAttribute: Sendable, Equatable {
    /// The text before the first `:`.
    public var name: String
    /// nil for a property attribute such as `a=rtcp-mux`; the text after the first `:` otherwise.
    public var value: String?

    /// An attribute.
    public init(name: String, value: String? = nil) {
        self.name = name
        self.value = value
    }

    /// The attribute as it appears after `a=`.
    public var text: String { value.map { "\(name):\($0)" } ?? name }
}
