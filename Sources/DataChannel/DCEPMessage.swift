/// A Data Channel Establishment Protocol message (RFC 8832 §5), carried with PPID 50 on the
/// channel's own stream, ordered and reliable (§6). Pure Swift: bytes in, a value out.
public enum DCEPMessage: Sendable, Hashable {
    /// DATA_CHANNEL_OPEN: the peer opens a channel on this stream.
    case open(DCEPOpen)
    /// DATA_CHANNEL_ACK: the peer accepted the channel this side opened.
    case ack

    // RFC 8832 §8.2.1, Message Type
    static let openType: UInt8 = 0x03
    static let ackType: UInt8 = 0x02
    /// Message type, channel type, priority, reliability parameter, label and protocol lengths.
    static let openFixedLength = 12

    /// Parses one message. Strict: lengths must add up to exactly the message.
    ///
    /// RFC 8832 §5.1, DATA_CHANNEL_OPEN:
    /// ```
    ///  0                   1                   2                   3
    ///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
    /// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
    /// |  Message Type |  Channel Type |            Priority           |
    /// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
    /// |                    Reliability Parameter                      |
    /// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
    /// |         Label Length          |       Protocol Length         |
    /// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
    /// \                                                               /
    /// |                             Label                             |
    /// /                                                               \
    /// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
    /// \                                                               /
    /// |                            Protocol                           |
    /// /                                                               \
    /// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
    /// ```
    /// RFC 8832 §5.2, DATA_CHANNEL_ACK:
    /// ```
    ///  0 1 2 3 4 5 6 7
    /// +-+-+-+-+-+-+-+-+
    /// |  Message Type |
    /// +-+-+-+-+-+-+-+-+
    /// ```
    public init(parsing bytes: [UInt8]) throws(DCEPError) {
        guard let type = bytes.first else { throw DCEPError.truncated.with("an empty message has no message type") }
        switch type {
        case Self.ackType:
            guard bytes.count == 1 else {
                throw DCEPError.trailingBytes.with("DATA_CHANNEL_ACK is 1 byte, this one \(bytes.count)")
            }
            self = .ack
        case Self.openType:
            self = .open(try Self.parseOpen(bytes))
        default:
            throw DCEPError.unknownMessageType.with("message type 0x\(String(type, radix: 16))")
        }
    }

    private static func parseOpen(_ bytes: [UInt8]) throws(DCEPError) -> DCEPOpen {
        guard bytes.count >= openFixedLength else {
            throw DCEPError.truncated.with("DATA_CHANNEL_OPEN needs \(openFixedLength) bytes before its label, has \(bytes.count)")
        }
        func uint16(_ at: Int) -> UInt16 { UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1]) }
        let channelType = bytes[1]
        let priority = uint16(2)
        let parameter = UInt32(bytes[4]) << 24 | UInt32(bytes[5]) << 16 | UInt32(bytes[6]) << 8 | UInt32(bytes[7])
        let labelLength = Int(uint16(8))
        let protocolLength = Int(uint16(10))
        let end = openFixedLength + labelLength + protocolLength
        guard bytes.count >= end else {
            throw DCEPError.truncated.with("label (\(labelLength)) and protocol (\(protocolLength)) need \(end) bytes, the message has \(bytes.count)")
        }
        guard bytes.count == end else {
            throw DCEPError.trailingBytes.with("\(bytes.count - end) bytes after the protocol")
        }
        let (ordered, reliability) = try DCEPOpen.settings(channelType: channelType, parameter: parameter)
        let labelEnd = openFixedLength + labelLength
        guard let label = String(validating: bytes[openFixedLength..<labelEnd], as: UTF8.self),
              let subprotocol = String(validating: bytes[labelEnd..<end], as: UTF8.self)
        else {
            throw DCEPError.invalidText
        }
        return DCEPOpen(ordered: ordered, reliability: reliability, priority: priority, label: label, protocol: subprotocol)
    }

    /// The message's bytes. Throws only for a label or protocol over 65535 bytes of UTF-8.
    public func serialized() throws(DCEPError) -> [UInt8] {
        switch self {
        case .ack:
            return [Self.ackType]
        case .open(let open):
            let label = Array(open.label.utf8)
            let subprotocol = Array(open.protocol.utf8)
            guard label.count <= Int(UInt16.max), subprotocol.count <= Int(UInt16.max) else { throw DCEPError.tooLong }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(Self.openFixedLength + label.count + subprotocol.count)
            let parameter = open.reliabilityParameter
            bytes += [Self.openType, open.channelType, UInt8(open.priority >> 8), UInt8(truncatingIfNeeded: open.priority)]
            bytes += [UInt8(parameter >> 24), UInt8(truncatingIfNeeded: parameter >> 16),
                      UInt8(truncatingIfNeeded: parameter >> 8), UInt8(truncatingIfNeeded: parameter)]
            bytes += [UInt8(label.count >> 8), UInt8(truncatingIfNeeded: label.count)]
            bytes += [UInt8(subprotocol.count >> 8), UInt8(truncatingIfNeeded: subprotocol.count)]
            return bytes + label + subprotocol
        }
    }
}
