/// A header extension Revue understands, for which media kinds, and the ID it uses when it
/// writes the offer itself. In answers the offer's ID is kept (RFC 8285 §6).
public struct HeaderExtensionCapability: Sendable, Equatable {
    /// The extension's URI.
    public var uri: String
    /// The media kinds it applies to.
    public var kinds: [MediaKind]
    /// The ID for offers Revue writes; one-byte range 1–14 (RFC 8285 §4.2).
    public var id: UInt16

    /// A header extension capability.
    public init(uri: String, kinds: [MediaKind], id: UInt16) {
        self.uri = uri
        self.kinds = kinds
        self.id = id
    }
}
