/// A STUN attribute type number (RFC 8489 §14, §18.3; RFC 8445 §16.1).
///
/// Types below 0x8000 are comprehension-required: an agent that does not know one must refuse
/// the message (420 for a request, RFC 8489 §6.3.1). Types from 0x8000 are comprehension-optional
/// and may be ignored (libwebrtc's NOMINATION, 0xC001, is one).
public struct STUNAttributeType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let mappedAddress = STUNAttributeType(rawValue: 0x0001)
    public static let username = STUNAttributeType(rawValue: 0x0006)
    public static let messageIntegrity = STUNAttributeType(rawValue: 0x0008)
    public static let errorCode = STUNAttributeType(rawValue: 0x0009)
    public static let unknownAttributes = STUNAttributeType(rawValue: 0x000A)
    public static let messageIntegritySHA256 = STUNAttributeType(rawValue: 0x001C)
    public static let xorMappedAddress = STUNAttributeType(rawValue: 0x0020)
    public static let priority = STUNAttributeType(rawValue: 0x0024)
    public static let useCandidate = STUNAttributeType(rawValue: 0x0025)
    public static let software = STUNAttributeType(rawValue: 0x8022)
    public static let fingerprint = STUNAttributeType(rawValue: 0x8028)
    public static let iceControlled = STUNAttributeType(rawValue: 0x8029)
    public static let iceControlling = STUNAttributeType(rawValue: 0x802A)

    /// True for types below 0x8000, which a receiver must understand.
    public var isComprehensionRequired: Bool { rawValue < 0x8000 }

    public var description: String {
        let names: [UInt16: String] = [
            0x0001: "MAPPED-ADDRESS", 0x0006: "USERNAME", 0x0008: "MESSAGE-INTEGRITY", 0x0009: "ERROR-CODE",
            0x000A: "UNKNOWN-ATTRIBUTES", 0x001C: "MESSAGE-INTEGRITY-SHA256", 0x0020: "XOR-MAPPED-ADDRESS",
            0x0024: "PRIORITY", 0x0025: "USE-CANDIDATE", 0x8022: "SOFTWARE", 0x8028: "FINGERPRINT",
            0x8029: "ICE-CONTROLLED", 0x802A: "ICE-CONTROLLING",
        ]
        let hex = "0x" + String(repeating: "0", count: 4 - String(rawValue, radix: 16).count) + String(rawValue, radix: 16)
        return names[rawValue].map { "\($0) (\(hex))" } ?? hex
    }
}
