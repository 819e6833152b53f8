import SRTP

/// What a finished DTLS-SRTP handshake gives SRTP (RFC 5764 §4.2): the negotiated protection
/// profile and the exported keying material, already split by role into this side's key and
/// salt (for sending) and the peer's (for receiving).
///
/// The export (label "EXTRACTOR-dtls_srtp", 2 × (key + salt) bytes) is laid out as
/// client key | server key | client salt | server salt; the DTLS client sends with the client
/// half, the server with the server half.
public struct DTLSKeys: Sendable, Equatable, CustomStringConvertible {
    /// The profile use_srtp negotiated.
    public let profile: SRTPProtectionProfile
    /// This side's master key and salt: what it protects with.
    public let local: SRTPKeyingMaterial
    /// The peer's master key and salt: what this side unprotects with.
    public let remote: SRTPKeyingMaterial

    /// Keys already split.
    public init(profile: SRTPProtectionProfile, local: SRTPKeyingMaterial, remote: SRTPKeyingMaterial) {
        self.profile = profile
        self.local = local
        self.remote = remote
    }

    /// Splits exported keying material for `role` (RFC 5764 §4.2). Nil when `material` is not
    /// 2 × (key + salt) bytes long.
    public init?(profile: SRTPProtectionProfile, exportedKeyingMaterial material: [UInt8], role: DTLSSession.Role) {
        let keyLength = profile.masterKeyLength, saltLength = profile.masterSaltLength
        guard material.count == 2 * (keyLength + saltLength) else { return nil }
        let clientKey = Array(material[0..<keyLength])
        let serverKey = Array(material[keyLength..<2 * keyLength])
        let clientSalt = Array(material[2 * keyLength..<2 * keyLength + saltLength])
        let serverSalt = Array(material[2 * keyLength + saltLength..<2 * (keyLength + saltLength)])
        let client = SRTPKeyingMaterial(masterKey: clientKey, masterSalt: clientSalt)
        let server = SRTPKeyingMaterial(masterKey: serverKey, masterSalt: serverSalt)
        switch role {
        case .client: self.init(profile: profile, local: client, remote: server)
        case .server: self.init(profile: profile, local: server, remote: client)
        }
    }

    /// The profile only: keys stay out of logs.
    public var description: String { "DTLSKeys(\(profile))" }
}
