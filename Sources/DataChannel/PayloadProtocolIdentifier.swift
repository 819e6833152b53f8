/// The SCTP payload protocol identifiers WebRTC uses (RFC 8831 §8, RFC 8832 §8.1): each DATA
/// chunk says what its message is.
public enum PayloadProtocolIdentifier: UInt32, Sendable, CaseIterable {
    /// WebRTC DCEP (RFC 8832): DATA_CHANNEL_OPEN and DATA_CHANNEL_ACK.
    case dcep = 50
    /// A non-empty UTF-8 message.
    case string = 51
    /// Deprecated partial string (RFC 8831 §6.6): never sent; a receiver drops it.
    case stringPartial = 52
    /// A non-empty binary message.
    case binary = 53
    /// Deprecated partial binary (RFC 8831 §6.6): never sent; a receiver drops it.
    case binaryPartial = 54
    /// An empty string, sent as one byte that the receiver ignores (RFC 8831 §6.6).
    case emptyString = 56
    /// An empty binary message, sent as one byte that the receiver ignores (RFC 8831 §6.6).
    case emptyBinary = 57
}
