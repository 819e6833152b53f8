/// A frame's temporal layer as the VP8 payload descriptor carries it (RFC 7741 §4.2,
/// https://www.rfc-editor.org/rfc/rfc7741#section-4.2): the TID and the Y bit.
public struct TemporalLayer: Sendable, Hashable {
    /// TID, 0…3: 0 is the base layer; a receiver may drop every frame above the layers it keeps.
    public var id: UInt8
    /// Y: the frame depends on base-layer (TID 0) frames only, so a receiver that dropped this
    /// layer can take it up again here.
    public var isSync: Bool

    public init(id: UInt8, isSync: Bool) {
        self.id = id & 0x03
        self.isSync = isSync
    }
}
