import Net

/// One STUN attribute, typed where Revue understands it and raw otherwise (RFC 8489 §14,
/// RFC 8445 §16.1).
///
/// ```
///  0                   1                   2                   3
///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |         Type                  |            Length             |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |                         Value (variable)                ....
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// ```
/// The length counts the value without the padding that brings it to a multiple of 4 (§14).
public enum STUNAttribute: Sendable, Hashable {
    /// MAPPED-ADDRESS (§14.1): the reflexive address in the clear, as pre-RFC 5389 servers send it.
    case mappedAddress(SocketAddress)
    /// XOR-MAPPED-ADDRESS (§14.2): the address the request came from, XORed so NATs that rewrite
    /// addresses in payloads leave it alone.
    case xorMappedAddress(SocketAddress)
    /// USERNAME (§14.3): for ICE, `receiverUfrag:senderUfrag` (RFC 8445 §7.2.2). At most 513 bytes.
    case username(String)
    /// MESSAGE-INTEGRITY (§14.5): HMAC-SHA1 over the message before it, 20 bytes.
    case messageIntegrity([UInt8])
    /// MESSAGE-INTEGRITY-SHA256 (§14.6): HMAC-SHA256, possibly truncated to 16–32 bytes. Parsed so it
    /// is not mistaken for an unknown comprehension-required attribute; Revue does not verify it.
    case messageIntegritySHA256([UInt8])
    /// FINGERPRINT (§14.7): CRC-32 of the message before it, XORed with 0x5354554E. Always last.
    case fingerprint(UInt32)
    /// ERROR-CODE (§14.8), in error responses.
    case errorCode(STUNErrorCode)
    /// UNKNOWN-ATTRIBUTES (§14.9): the types a 420 response refuses.
    case unknownAttributes([UInt16])
    /// SOFTWARE (§14.14): the agent's name and version, for diagnostics.
    case software(String)
    /// PRIORITY (RFC 8445 §7.1.1): the priority a peer-reflexive candidate learned from this check would get.
    case priority(UInt32)
    /// USE-CANDIDATE (RFC 8445 §7.1.2): the controlling agent nominates this pair. No value.
    case useCandidate
    /// ICE-CONTROLLED (RFC 8445 §7.1.3) with the sender's 64-bit tiebreaker.
    case iceControlled(UInt64)
    /// ICE-CONTROLLING (RFC 8445 §7.1.3) with the sender's 64-bit tiebreaker.
    case iceControlling(UInt64)
    /// Any other attribute, kept as it came.
    case other(type: UInt16, value: [UInt8])

    /// The XOR constant of FINGERPRINT, "STUN" in ASCII (RFC 8489 §14.7).
    public static let fingerprintXOR: UInt32 = 0x5354_554E

    /// The attribute's type number.
    public var type: STUNAttributeType {
        switch self {
        case .mappedAddress: .mappedAddress
        case .xorMappedAddress: .xorMappedAddress
        case .username: .username
        case .messageIntegrity: .messageIntegrity
        case .messageIntegritySHA256: .messageIntegritySHA256
        case .fingerprint: .fingerprint
        case .errorCode: .errorCode
        case .unknownAttributes: .unknownAttributes
        case .software: .software
        case .priority: .priority
        case .useCandidate: .useCandidate
        case .iceControlled: .iceControlled
        case .iceControlling: .iceControlling
        case .other(let type, _): STUNAttributeType(rawValue: type)
        }
    }

    // MARK: Parsing

    /// Reads one attribute's value. `transactionID` is needed to undo XOR-MAPPED-ADDRESS's IPv6 XOR.
    static func parse(type: UInt16, value: ArraySlice<UInt8>, transactionID: STUNTransactionID) throws(STUNError) -> STUNAttribute {
        func bad(_ why: String) -> STUNError { STUNError(.badAttribute(type, why)) }
        func expectLength(_ lengths: ClosedRange<Int>) throws(STUNError) {
            guard lengths.contains(value.count) else {
                throw bad("length \(value.count), expected \(lengths.lowerBound == lengths.upperBound ? "\(lengths.lowerBound)" : "\(lengths)")")
            }
        }
        func text(maxBytes: Int) throws(STUNError) -> String {
            guard value.count <= maxBytes else { throw bad("\(value.count) bytes, at most \(maxBytes)") }
            guard let string = String(validating: value, as: UTF8.self) else { throw bad("not UTF-8") }
            return string
        }
        switch STUNAttributeType(rawValue: type) {
        case .mappedAddress:
            return .mappedAddress(try parseAddress(value, xor: nil, bad: bad))
        case .xorMappedAddress:
            return .xorMappedAddress(try parseAddress(value, xor: transactionID, bad: bad))
        case .username:
            // RFC 8489 §14.3: "MUST contain a UTF-8-encoded sequence of fewer than 509 bytes" after
            // OpaqueString processing; the length field allows 513.
            return .username(try text(maxBytes: 513))
        case .messageIntegrity:
            try expectLength(20...20)
            return .messageIntegrity(Array(value))
        case .messageIntegritySHA256:
            try expectLength(16...32)
            guard value.count % 4 == 0 else { throw bad("length \(value.count) is not a multiple of 4") }
            return .messageIntegritySHA256(Array(value))
        case .fingerprint:
            try expectLength(4...4)
            return .fingerprint(uint32(value))
        case .errorCode:
            // RFC 8489 §14.8: 21 reserved bits, a 3-bit class (3–6) and a number (0–99), then the reason.
            guard value.count >= 4 else { throw bad("length \(value.count), at least 4") }
            let start = value.startIndex
            let errorClass = UInt16(value[start + 2] & 0x07)
            let number = UInt16(value[start + 3])
            guard (3...6).contains(errorClass), number < 100 else { throw bad("class \(errorClass) number \(number)") }
            let reasonBytes = value.dropFirst(4)
            guard reasonBytes.count <= 763 else { throw bad("reason of \(reasonBytes.count) bytes, at most 763") }
            guard let reason = String(validating: reasonBytes, as: UTF8.self) else { throw bad("reason is not UTF-8") }
            return .errorCode(STUNErrorCode(code: errorClass * 100 + number, reason: reason))
        case .unknownAttributes:
            guard value.count % 2 == 0 else { throw bad("odd length \(value.count)") }
            return .unknownAttributes(stride(from: value.startIndex, to: value.endIndex, by: 2).map {
                UInt16(value[$0]) << 8 | UInt16(value[$0 + 1])
            })
        case .software:
            return .software(try text(maxBytes: 763))
        case .priority:
            try expectLength(4...4)
            return .priority(uint32(value))
        case .useCandidate:
            try expectLength(0...0)
            return .useCandidate
        case .iceControlled:
            try expectLength(8...8)
            return .iceControlled(uint64(value))
        case .iceControlling:
            try expectLength(8...8)
            return .iceControlling(uint64(value))
        default:
            return .other(type: type, value: Array(value))
        }
    }

    /// RFC 8489 §14.1/§14.2:
    /// ```
    /// |0 0 0 0 0 0 0 0|    Family     |         (X-)Port              |
    /// |                 (X-)Address (32 bits or 128 bits)             |
    /// ```
    /// XOR-MAPPED-ADDRESS XORs the port with the cookie's top 16 bits, an IPv4 address with the
    /// cookie, and an IPv6 address with the cookie followed by the transaction ID.
    private static func parseAddress(_ value: ArraySlice<UInt8>, xor transactionID: STUNTransactionID?,
                                     bad: (String) -> STUNError) throws(STUNError) -> SocketAddress {
        guard value.count >= 4 else { throw bad("length \(value.count), at least 4") }
        let start = value.startIndex
        let family = value[start + 1]
        var port = UInt16(value[start + 2]) << 8 | UInt16(value[start + 3])
        var address = Array(value.dropFirst(4))
        switch (family, address.count) {
        case (0x01, 4), (0x02, 16): break
        case (0x01, _), (0x02, _): throw bad("family \(family) with \(address.count) address bytes")
        default: throw bad("unknown address family \(family)")
        }
        if let transactionID {
            port ^= UInt16(STUNMessage.magicCookie >> 16)
            let mask = xorMask(transactionID)
            for index in address.indices { address[index] ^= mask[index] }
        }
        guard let ip = IPAddress(bytes: address) else { throw bad("address of \(address.count) bytes") }
        return SocketAddress(ip: ip, port: port)
    }

    /// The cookie followed by the transaction ID: the 16 bytes an address is XORed with.
    private static func xorMask(_ transactionID: STUNTransactionID) -> [UInt8] {
        [0x21, 0x12, 0xA4, 0x42] + transactionID.bytes
    }

    private static func uint32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    private static func uint64(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    // MARK: Serialising

    /// The value's bytes, without padding. Throws for values the format cannot hold.
    func marshalValue(transactionID: STUNTransactionID) throws(STUNError) -> [UInt8] {
        func bad(_ why: String) -> STUNError { STUNError(.unrepresentable("\(type): \(why)")) }
        switch self {
        case .mappedAddress(let address):
            return Self.marshalAddress(address, xor: nil)
        case .xorMappedAddress(let address):
            return Self.marshalAddress(address, xor: transactionID)
        case .username(let text):
            guard text.utf8.count <= 513 else { throw bad("\(text.utf8.count) bytes, at most 513") }
            return Array(text.utf8)
        case .messageIntegrity(let code):
            guard code.count == 20 else { throw bad("\(code.count) bytes, expected 20") }
            return code
        case .messageIntegritySHA256(let code):
            guard (16...32).contains(code.count), code.count % 4 == 0 else { throw bad("\(code.count) bytes") }
            return code
        case .fingerprint(let value):
            return Self.bytes(UInt64(value), count: 4)
        case .errorCode(let error):
            guard (300...699).contains(error.code) else { throw bad("code \(error.code) is not 300–699") }
            guard error.reason.utf8.count <= 763 else { throw bad("reason of \(error.reason.utf8.count) bytes") }
            return [0, 0, UInt8(error.code / 100), UInt8(error.code % 100)] + Array(error.reason.utf8)
        case .unknownAttributes(let types):
            return types.flatMap { Self.bytes(UInt64($0), count: 2) }
        case .software(let text):
            guard text.utf8.count <= 763 else { throw bad("\(text.utf8.count) bytes, at most 763") }
            return Array(text.utf8)
        case .priority(let value):
            return Self.bytes(UInt64(value), count: 4)
        case .useCandidate:
            return []
        case .iceControlled(let value), .iceControlling(let value):
            return Self.bytes(value, count: 8)
        case .other(_, let value):
            guard value.count <= 0xFFFF else { throw bad("\(value.count) bytes") }
            return value
        }
    }

    private static func marshalAddress(_ address: SocketAddress, xor transactionID: STUNTransactionID?) -> [UInt8] {
        var port = address.port
        var ip = address.ip.bytes
        if let transactionID {
            port ^= UInt16(STUNMessage.magicCookie >> 16)
            let mask = xorMask(transactionID)
            for index in ip.indices { ip[index] ^= mask[index] }
        }
        return [0, address.ip.family == .v4 ? 0x01 : 0x02] + bytes(UInt64(port), count: 2) + ip
    }

    private static func bytes(_ value: UInt64, count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(count - 1 - $0))) }
    }
}
