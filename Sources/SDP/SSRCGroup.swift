/// `a=ssrc-group:<semantics> <ssrc> …` (RFC 5576 §4.2): `FID` pairs a media SSRC with its RTX
/// SSRC (RFC 4588 §8.3, media first); `SIM` lists simulcast layers; `FEC-FR` pairs FEC.
public struct SSRCGroup: Sendable, Equatable {
    /// `FID`, `SIM` or `FEC-FR`.
    public var semantics: String
    /// The SSRCs in order.
    public var ssrcs: [UInt32]

    /// A group.
    public init(semantics: String, ssrcs: [UInt32]) {
        self.semantics = semantics
        self.ssrcs = ssrcs
    }
}
