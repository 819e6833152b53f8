/// A STUN attribute type number (RFC 8489 §14, §18.3; RFC 8445 §16.1).
///
/// Types below 0x8000 are comprehension-required: an agent that does not know one must refuse
/// the message (420 for a request, RFC 8489 §6.3.1). Types from 0x8000 are comprehension-optional
/// and may be ignored (libwebrtc's NOMINATION, 0xC001, is one).
public struct STUNAttributeType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The 16-bit type number.
    public let rawValue: UInt16

    /// A type from its number.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// MAPPED-ADDRESS (RFC 8489 §14.1).
    public static let mappedAddress = STUNAttributeType(rawValue: 0x0001)
    /// USERNAME (RFC 8489 §14.3).
    public static let username = STUNAttributeType(rawValue: 0x0006)
    /// MESSAGE-INTEGRITY (RFC 8489 §14.5).
    public static let messageIntegrity = STUNAttributeType(rawValue: 0x0008)
    /// ERROR-CODE (RFC 8489 §14.8).
    public static let errorCode = STUNAttributeType(rawValue: 0x0009)
    /// UNKNOWN-ATTRIBUTES (RFC 8489 §14.9).
    public static let unknownAttributes = STUNAttributeType(rawValue: 0x000A)
    /// MESSAGE-INTEGRITY-SHA256 (RFC 8489 §14.6).
    public static let messageIntegritySHA256 = STUNAttributeType(rawValue: 0x001C)
    /// XOR-MAPPED-ADDRESS (RFC 8489 §14.2).
    public static let xorMappedAddress = STUNAttributeType(rawValue: 0x0020)
    /// PRIORITY (RFC 8445 §16.1).
    public static let priority = STUNAttributeType(rawValue: 0x0024)
    /// USE-CANDIDATE (RFC 8445 §16.1).
    public static let useCandidate = STUNAttributeType(rawValue: 0x0025)
    /// SOFTWARE (RFC 8489 §14.14).
    public static let software = STUNAttributeType(rawValue: 0x8022)
    /// FINGERPRINT (RFC 8489 §14.7).
    public static let fingerprint = STUNAttributeType(rawValue: 0x8028)
    /// ICE-CONTROLLED (RFC 8445 §16.1).
    public static let iceControlled = STUNAttributeType(rawValue: 0x8029)
    /// ICE-CONTROLLING (RFC 8445 §16.1).
    public static let iceControlling = STUNAttributeType(rawValue: 0x802A)

    /// True for types below 0x8000, which a receiver must understand.
    public var isComprehensionRequired: Bool { rawValue < 0x8000 }

    private static let names: [UInt16: String] = [
        0x0001: "MAPPED-ADDRESS", 0x0006: "USERNAME", 0x0008: "MESSAGE-INTEGRITY", 0x0009: "ERROR-CODE",
        0x000A: "UNKNOWN-ATTRIBUTES", 0x001C: "MESSAGE-INTEGRITY-SHA256", 0x0020: "XOR-MAPPED-ADDRESS",
        0x0024: "PRIORITY", 0x0025: "USE-CANDIDATE", 0x8022: "SOFTWARE", 0x8028: "FINGERPRINT",
        0x8029: "ICE-CONTROLLED", 0x802A: "ICE-CONTROLLING",
    ]

    /// The RFC name and the number, `USERNAME (0x0006)`, or the number alone for an unknown type.
    public var description: String {
        let digits = String(rawValue, radix: 16)
        let hex = "0x" + String(repeating: "0", count: 4 - digits.count) + digits
        return Self.names[rawValue].map { "\($0) (\(hex))" } ?? hex
    }
}
