/// One direction's SRTP master key and master salt (RFC 3711 §8.2), as DTLS-SRTP exports them
/// (RFC 5764 §4.2). The description never shows the bytes, so keys cannot end up in logs.
public struct SRTPKeyingMaterial: Sendable, Equatable, CustomStringConvertible {
    /// The master key (16 bytes for both profiles).
    public let masterKey: [UInt8]
    /// The master salt (14 bytes for AES-CM, 12 for GCM).
    public let masterSalt: [UInt8]

    /// Keeps the bytes as given; `SRTPSession` checks their lengths against its profile.
    public init(masterKey: [UInt8], masterSalt: [UInt8]) {
        self.masterKey = masterKey
        self.masterSalt = masterSalt
    }

    /// True when the lengths are the ones `profile` needs.
    public func fits(_ profile: SRTPProtectionProfile) -> Bool {
        masterKey.count == profile.masterKeyLength && masterSalt.count == profile.masterSaltLength
    }

    /// The lengths only.
    public var description: String {
        "SRTPKeyingMaterial(\(masterKey.count)-byte key, \(masterSalt.count)-byte salt)"
    }
}
