import Net

/// A STUN message (RFC 8489 §5, https://www.rfc-editor.org/rfc/rfc8489#section-5).
///
/// ```
///  0                   1                   2                   3
///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |0 0|     STUN Message Type     |         Message Length        |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |                         Magic Cookie                          |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |                                                               |
/// |                     Transaction ID (96 bits)                  |
/// |                                                               |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// ```
/// The length counts the attributes after the 20-byte header; it is a multiple of 4.
///
/// A parsed message keeps the bytes it came from, because MESSAGE-INTEGRITY and FINGERPRINT cover
/// those bytes exactly (padding included); changing any field forgets them. Equality compares the
/// type, the transaction ID and the attributes only.
public struct STUNMessage: Sendable, Equatable {
    /// 0x2112A442, the constant that tells STUN from other traffic on the port (RFC 8489 §5).
    public static let magicCookie: UInt32 = 0x2112_A442
    /// The header's size.
    public static let headerSize = 20

    /// Method and class.
    public var type: STUNMessageType { didSet { received = nil } }
    /// The transaction this message belongs to.
    public var transactionID: STUNTransactionID { didSet { received = nil } }
    /// The attributes in wire order. Attributes after MESSAGE-INTEGRITY other than
    /// MESSAGE-INTEGRITY-SHA256 and FINGERPRINT are dropped when parsing, as §14.5 says to ignore them.
    public var attributes: [STUNAttribute] { didSet { received = nil } }

    /// The bytes a parsed message came from, and where its integrity attributes start in them.
    private var received: Received?

    private struct Received: Sendable {
        var bytes: [UInt8]
        var integrityOffset: Int?
        var fingerprintOffset: Int?
    }

    /// The received bytes and where MESSAGE-INTEGRITY and FINGERPRINT start in them; nil for a
    /// message built or changed in memory.
    var receivedBytes: ([UInt8], (integrity: Int?, fingerprint: Int?))? {
        received.map { ($0.bytes, ($0.integrityOffset, $0.fingerprintOffset)) }
    }

    /// A message from its parts.
    public init(type: STUNMessageType, transactionID: STUNTransactionID, attributes: [STUNAttribute] = []) {
        self.type = type
        self.transactionID = transactionID
        self.attributes = attributes
    }

    public static func == (lhs: STUNMessage, rhs: STUNMessage) -> Bool {
        lhs.type == rhs.type && lhs.transactionID == rhs.transactionID && lhs.attributes == rhs.attributes
    }

    /// RFC 7983 §7 demultiplexing: a first byte of 0–3 and the magic cookie at bytes 4–7. Cheap,
    /// for sorting datagrams on a shared port before parsing them.
    public static func looksLikeSTUN(_ bytes: [UInt8]) -> Bool {
        bytes.count >= headerSize && bytes[0] <= 3
            && bytes[4] == 0x21 && bytes[5] == 0x12 && bytes[6] == 0xA4 && bytes[7] == 0x42
    }

    // MARK: Parsing

    /// Parses one datagram as one message (RFC 8489 §6.3): the two zero bits, the cookie, a length
    /// that is a multiple of 4 and matches the datagram, and well-formed attributes. FINGERPRINT,
    /// when present, must be the last attribute (§14.7). Integrity is checked separately, by
    /// `verifyIntegrity(key:)` and `verifyFingerprint()`.
    public init(parsing bytes: [UInt8]) throws(STUNError) {
        guard bytes.count >= Self.headerSize else {
            throw STUNError(.truncated("header", needed: Self.headerSize, available: bytes.count))
        }
        guard bytes[0] & 0xC0 == 0 else { throw STUNError(.notSTUN("the first two bits are not zero")) }
        let length = Int(Self.uint16(bytes, at: 2))
        let cookie = UInt32(Self.uint16(bytes, at: 4)) << 16 | UInt32(Self.uint16(bytes, at: 6))
        guard cookie == Self.magicCookie else { throw STUNError(.notSTUN("no magic cookie")) }
        guard length % 4 == 0 else { throw STUNError(.notSTUN("length \(length) is not a multiple of 4")) }
        guard Self.headerSize + length <= bytes.count else {
            throw STUNError(.truncated("attributes", needed: length, available: bytes.count - Self.headerSize))
        }
        guard Self.headerSize + length == bytes.count else {
            throw STUNError(.notSTUN("\(bytes.count - Self.headerSize - length) bytes after the message"))
        }
        let type = STUNMessageType(rawValue: Self.uint16(bytes, at: 0))
        let transactionID = STUNTransactionID(folding: bytes[8..<20])
        self.type = type
        self.transactionID = transactionID

        var attributes: [STUNAttribute] = []
        var received = Received(bytes: bytes)
        var afterIntegrity = false
        var afterIntegritySHA256 = false
        var offset = Self.headerSize
        while offset < bytes.count {
            // Four header bytes are there: offsets stay multiples of 4 and so does the end.
            let attributeType = Self.uint16(bytes, at: offset)
            let valueLength = Int(Self.uint16(bytes, at: offset + 2))
            let paddedLength = (valueLength + 3) & ~3
            guard offset + 4 + paddedLength <= bytes.count else {
                throw STUNError(.badAttribute(attributeType, "value of \(valueLength) bytes runs past the message"),
                                messageType: type, transactionID: transactionID)
            }
            guard received.fingerprintOffset == nil else {
                throw STUNError(.badAttribute(attributeType, "follows FINGERPRINT, which must be last"),
                                messageType: type, transactionID: transactionID)
            }
            let kind = STUNAttributeType(rawValue: attributeType)
            // §14.5, §14.6: attributes after the integrity ones are not covered by them and are ignored.
            let ignored = (afterIntegritySHA256 && kind != .fingerprint)
                || (afterIntegrity && kind != .fingerprint && kind != .messageIntegritySHA256)
            if !ignored {
                let value = bytes[(offset + 4)..<(offset + 4 + valueLength)]
                let attribute: STUNAttribute
                do {
                    attribute = try STUNAttribute.parse(type: attributeType, value: value, transactionID: transactionID)
                } catch {
                    throw error.with(messageType: type, transactionID: transactionID)
                }
                switch kind {
                case .messageIntegrity:
                    afterIntegrity = true
                    received.integrityOffset = offset
                case .messageIntegritySHA256:
                    afterIntegritySHA256 = true
                case .fingerprint:
                    received.fingerprintOffset = offset
                default:
                    break
                }
                attributes.append(attribute)
            }
            offset += 4 + paddedLength
        }
        self.attributes = attributes
        self.received = received
    }

    private static func uint16(_ bytes: [UInt8], at offset: Int) -> UInt16 {
        UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    // MARK: Serialising

    /// Serialises the header and the attributes as they are. Padding bytes are `padding` (RFC 8489
    /// §14 says zero; the RFC 5769 test vectors use spaces). Throws for a value the format cannot
    /// hold, or a message longer than 65,535 bytes of attributes.
    public func marshal(padding: UInt8 = 0) throws(STUNError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.headerSize + attributes.count * 12)
        Self.append(UInt32(type.rawValue) << 16, to: &bytes)
        Self.append(Self.magicCookie, to: &bytes)
        bytes += transactionID.bytes
        for attribute in attributes {
            let value = try attribute.marshalValue(transactionID: transactionID)
            Self.appendAttribute(attribute.type.rawValue, value: value, padding: padding, to: &bytes)
        }
        try Self.setLength(bytes.count - Self.headerSize, in: &bytes)
        return bytes
    }

    static func appendAttribute(_ type: UInt16, value: [UInt8], padding: UInt8, to bytes: inout [UInt8]) {
        Self.append(UInt32(type) << 16 | UInt32(value.count), to: &bytes)
        bytes += value
        while bytes.count % 4 != 0 { bytes.append(padding) }
    }

    static func setLength(_ length: Int, in bytes: inout [UInt8]) throws(STUNError) {
        guard length <= 0xFFFF else { throw STUNError(.unrepresentable("\(length) bytes of attributes, at most 65535")) }
        bytes[2] = UInt8(length >> 8)
        bytes[3] = UInt8(truncatingIfNeeded: length)
    }

    private static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
                  UInt8(truncatingIfNeeded: value)]
    }

    // MARK: Attributes by kind (the first of each, as RFC 8489 §14 says only the first counts)

    /// USERNAME.
    public var username: String? {
        for case .username(let value) in attributes { return value }
        return nil
    }

    /// PRIORITY.
    public var priority: UInt32? {
        for case .priority(let value) in attributes { return value }
        return nil
    }

    /// Whether USE-CANDIDATE is present.
    public var useCandidate: Bool { attributes.contains(.useCandidate) }

    /// ICE-CONTROLLING's tiebreaker.
    public var iceControlling: UInt64? {
        for case .iceControlling(let value) in attributes { return value }
        return nil
    }

    /// ICE-CONTROLLED's tiebreaker.
    public var iceControlled: UInt64? {
        for case .iceControlled(let value) in attributes { return value }
        return nil
    }

    /// XOR-MAPPED-ADDRESS.
    public var xorMappedAddress: SocketAddress? {
        for case .xorMappedAddress(let value) in attributes { return value }
        return nil
    }

    /// ERROR-CODE.
    public var errorCode: STUNErrorCode? {
        for case .errorCode(let value) in attributes { return value }
        return nil
    }

    /// SOFTWARE.
    public var software: String? {
        for case .software(let value) in attributes { return value }
        return nil
    }

    /// MESSAGE-INTEGRITY's code.
    public var messageIntegrity: [UInt8]? {
        for case .messageIntegrity(let value) in attributes { return value }
        return nil
    }

    /// FINGERPRINT's value.
    public var fingerprint: UInt32? {
        for case .fingerprint(let value) in attributes { return value }
        return nil
    }

    /// Comprehension-required types (below 0x8000) that Revue does not understand, each once, in the
    /// order they came: a request with any gets 420 and these in UNKNOWN-ATTRIBUTES (§6.3.1.1).
    public var unknownComprehensionRequired: [UInt16] {
        var types: [UInt16] = []
        for case .other(let type, _) in attributes where type < 0x8000 && !types.contains(type) { types.append(type) }
        return types
    }
}
