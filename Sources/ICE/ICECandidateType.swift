/// The kind of an ICE candidate (RFC 8445 §5.1.1, SDP names from RFC 8839 §5.1).
public enum ICECandidateType: Sendable, Hashable, CustomStringConvertible {
    /// An address on a local interface: all a lite server has.
    case host
    /// An address a STUN server saw (`srflx`).
    case serverReflexive
    /// An address learned from a check's source (`prflx`, RFC 8445 §7.2.5.3.1).
    case peerReflexive
    /// A TURN relay's address (`relay`).
    case relayed
    /// A type this code does not know, kept as written.
    case other(String)

    /// The type from its SDP name.
    public init(sdpName: String) {
        switch sdpName {
        case "host": self = .host
        case "srflx": self = .serverReflexive
        case "prflx": self = .peerReflexive
        case "relay": self = .relayed
        default: self = .other(sdpName)
        }
    }

    /// The SDP name.
    public var description: String {
        switch self {
        case .host: "host"
        case .serverReflexive: "srflx"
        case .peerReflexive: "prflx"
        case .relayed: "relay"
        case .other(let name): name
        }
    }

    /// The recommended type preference of RFC 8445 §5.1.2.2: host 126, prflx 110, srflx 100, relay 0.
    public var typePreference: UInt32 {
        switch self {
        case .host: 126
        case .peerReflexive: 110
        case .serverReflexive: 100
        case .relayed, .other: 0
        }
    }
}
