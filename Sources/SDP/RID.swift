/// `a=rid:<id> <send|recv> [<restrictions>]` (RFC 8851 §10): names one RTP stream of a media
/// section, such as a simulcast layer.
public struct RID: Sendable, Equatable {
    /// Whether the writer sends or receives the stream.
    public enum Direction: String, Sendable {
        case send
        case recv
    }

    public var id: String
    public var direction: Direction
    /// The restrictions as written: `pt=96,97;max-width=1280` (RFC 8851 §4).
    public var restrictions: String?

    public init(id: String, direction: Direction, restrictions: String? = nil) {
        self.id = id
        self.direction = direction
        self.restrictions = restrictions
    }

    /// The `pt=` restriction: payload types this stream may use (empty means any).
    public var payloadTypes: [UInt8] {
        guard let restrictions else { return [] }
        for part in restrictions.split(separator: ";") where part.hasPrefix("pt=") {
            return part.dropFirst(3).split(separator: ",").compactMap { UInt8($0) }
        }
        return []
    }
}
