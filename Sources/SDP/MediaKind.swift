/// The media type of an `m=` line (RFC 8866 §5.14). Kinds other than audio, video and
/// application (such as `text` or `message`) parse as `.other` so that they can be rejected.
public enum MediaKind: Sendable, Hashable, CustomStringConvertible {
    /// `m=audio`.
    case audio
    /// `m=video`.
    case video
    /// Data channels: `m=application … UDP/DTLS/SCTP webrtc-datachannel` (RFC 8841).
    case application
    /// Any other kind, with its token.
    case other(String)

    /// The kind named by an m-line token.
    public init(_ token: some StringProtocol) {
        switch token {
        case "audio": self = .audio
        case "video": self = .video
        case "application": self = .application
        default: self = .other(String(token))
        }
    }

    /// The m-line token.
    public var description: String {
        switch self {
        case .audio: "audio"
        case .video: "video"
        case .application: "application"
        case .other(let token): token
        }
    }
}
