/// `a=rid:<id> <send|recv> [<restrictions>]` (RFC 8851 §10): names one RTP stream of a media
/// section, such as a simulcast layer.
public struct RID: Sendable, Equatable {
    /// Whether the writer sends or receives the stream.
    public enum Direction: String, Sendable {
        /// The writer sends this stream.
        case send
        /// The writer receives this stream.
        case recv
    }

    /// The RID, as carried by the rtp-stream-id extension.
    public var id: String
    /// send or recv.
    public var direction: Direction
    /// The restrictions as written: `pt=96,97;max-width=1280` (RFC 8851 §4).
    public var restrictions: String?

    /// A RID line.
    public init(id: String, direction: Direction, restrictions: String? = nil) {
        self.id = id
        self.direction = direction
        self.restrictions = restrictions
    }

    /// The `pt=` restriction: payload types this stream may use (empty means any).
    public var payloadTypes: [UInt8] {
        guard let restrictions else { return [] }
        for part in restrictions[...].parts(UInt8(ascii: ";")) {
            guard let (key, value) = part.splitOnce(UInt8(ascii: "=")), key == "pt" else { continue }
            return value.parts(UInt8(ascii: ",")).compactMap(\.uint8)
        }
        return []
    }
}
