import Crypto

/// MESSAGE-INTEGRITY and FINGERPRINT: adding them when sending, checking them when receiving.
///
/// Both cover the message up to the attribute itself, with the header's length field set as if the
/// message ended right after that attribute (RFC 8489 §14.5, §14.7):
/// - MESSAGE-INTEGRITY is HMAC-SHA1 over the bytes before it, the length counting up to and
///   including MESSAGE-INTEGRITY but not a FINGERPRINT after it;
/// - FINGERPRINT is CRC-32 over the bytes before it, the length counting FINGERPRINT, XORed with
///   0x5354554E, and it is always last.
extension STUNMessage {
    /// Serialises the message and appends MESSAGE-INTEGRITY keyed with `integrityKey` (when given),
    /// then FINGERPRINT (when `fingerprint` is true), in that order. For ICE the key is the
    /// receiver's ice-pwd as UTF-8 (short-term credentials, RFC 8489 §9.1.1; RFC 8445 §7.2.2).
    ///
    /// Throws when `attributes` already hold either attribute, or for a value the format cannot hold.
    public func marshal(integrityKey: [UInt8]?, fingerprint: Bool, padding: UInt8 = 0) throws(STUNError) -> [UInt8] {
        for attribute in attributes {
            switch attribute {
            case .messageIntegrity, .messageIntegritySHA256, .fingerprint:
                throw STUNError(.unrepresentable("\(attribute.type) is added by marshal(integrityKey:fingerprint:), not given"))
            default:
                continue
            }
        }
        var bytes = try marshal(padding: padding)
        if let integrityKey {
            try Self.setLength(bytes.count - Self.headerSize + 24, in: &bytes)
            let code = HMACSHA1.authenticationCode(key: integrityKey, message: bytes)
            Self.appendAttribute(STUNAttributeType.messageIntegrity.rawValue, value: code, padding: padding, to: &bytes)
        }
        if fingerprint {
            try Self.setLength(bytes.count - Self.headerSize + 8, in: &bytes)
            let value = CRC32.checksum(bytes) ^ STUNAttribute.fingerprintXOR
            Self.appendAttribute(STUNAttributeType.fingerprint.rawValue,
                                 value: [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16),
                                         UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)],
                                 padding: padding, to: &bytes)
        }
        return bytes
    }

    /// True when the message has a MESSAGE-INTEGRITY whose HMAC-SHA1 under `key` matches, compared
    /// in constant time (RFC 8489 §9.1.3, §14.5). False when it has none.
    public func verifyIntegrity(key: [UInt8]) -> Bool {
        guard let (bytes, offsets) = wireForm(), let offset = offsets.integrity else { return false }
        var covered = Array(bytes[0..<offset])
        // Cannot throw: the length is that of a message that already parsed.
        guard (try? Self.setLength(offset - Self.headerSize + 24, in: &covered)) != nil else { return false }
        let expected = HMACSHA1.authenticationCode(key: key, message: covered)
        return HMACSHA1.constantTimeEqual(expected, Array(bytes[(offset + 4)..<(offset + 24)]))
    }

    /// True when the message ends in a FINGERPRINT that matches its bytes (RFC 8489 §14.7). False
    /// when it has none.
    public func verifyFingerprint() -> Bool {
        guard let (bytes, offsets) = wireForm(), let offset = offsets.fingerprint else { return false }
        let value = bytes[(offset + 4)..<(offset + 8)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return CRC32.checksum(bytes[0..<offset]) ^ STUNAttribute.fingerprintXOR == value
    }

    /// The bytes the integrity attributes cover: the received ones, or a fresh serialisation for a
    /// message built in memory.
    private func wireForm() -> ([UInt8], (integrity: Int?, fingerprint: Int?))? {
        if let received = receivedBytes { return received }
        guard let bytes = try? marshal(), let reparsed = try? STUNMessage(parsing: bytes) else { return nil }
        return reparsed.receivedBytes
    }
}
