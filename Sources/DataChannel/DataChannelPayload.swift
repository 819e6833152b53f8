/// One data channel message: what `RTCDataChannel.send()` took and `onmessage` gives.
public enum DataChannelPayload: Sendable, Hashable {
    /// A string message (PPID 51, or 56 when empty).
    case text(String)
    /// A binary message (PPID 53, or 57 when empty).
    case binary([UInt8])

    /// The message's size in bytes (UTF-8 for text), as `bufferedAmount` and the maximum
    /// message size count it.
    public var count: Int {
        switch self {
        case .text(let text): text.utf8.count
        case .binary(let bytes): bytes.count
        }
    }

    /// The PPID and bytes to send. SCTP cannot send an empty message, so an empty one goes as
    /// a single zero byte under the "empty" PPID (RFC 8831 §6.6).
    var wire: (PayloadProtocolIdentifier, [UInt8]) {
        switch self {
        case .text(let text) where text.isEmpty: (.emptyString, [0])
        case .text(let text): (.string, Array(text.utf8))
        case .binary(let bytes) where bytes.isEmpty: (.emptyBinary, [0])
        case .binary(let bytes): (.binary, bytes)
        }
    }

    /// The message a PPID and its bytes stand for, or nil for DCEP and the deprecated partial
    /// PPIDs. Text that is not UTF-8 is decoded with U+FFFD in place of bad bytes, as browsers
    /// do for `onmessage`.
    init?(ppid: PayloadProtocolIdentifier, bytes: [UInt8]) {
        switch ppid {
        case .string: self = .text(String(decoding: bytes, as: UTF8.self))
        case .binary: self = .binary(bytes)
        case .emptyString: self = .text("")
        case .emptyBinary: self = .binary([])
        case .dcep, .stringPartial, .binaryPartial: return nil
        }
    }
}
