/// Which end of the connection this is. It decides masking (RFC 6455 §5.1): a client masks every
/// frame it sends and a server none, and each fails a connection whose peer does otherwise.
public enum WebSocketRole: Sendable, Equatable {
    case server
    case client

    /// Whether frames arriving at this end must be masked.
    var expectsMaskedFrames: Bool { self == .server }
}
