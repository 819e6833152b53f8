import CSRTP

/// SRTP and SRTCP protection for one transport (RFC 3711, RFC 7714), over libsrtp2.
///
/// It owns two libsrtp sessions (`srtp_t`, freed in `deinit`): an outbound one keyed with the
/// local master key and salt (`ssrc_any_outbound`, so every SSRC this side sends is covered) and an
/// inbound one keyed with the remote's (`ssrc_any_inbound`). libsrtp allows one wildcard policy
/// per session, hence two.
///
/// Thread safety: the two directions share nothing, so one thread may protect while another
/// unprotects. Calls in the same direction must not overlap (libsrtp adds a stream to its session
/// the first time it sees an SSRC).
// @unchecked Sendable: owns two libsrtp sessions (`srtp_t`), each used by one thread at a time (its connection's loop)
public final class SRTPSession: @unchecked Sendable {
    /// The profile both directions use.
    public let profile: SRTPProtectionProfile
    private let outbound: OpaquePointer
    private let inbound: OpaquePointer
    private static let trailerRoom = Int(revue_srtp_max_trailer_len())

    /// Starts both directions.
    /// - Parameters:
    ///   - local: this side's master key and salt: what `protectRTP`/`protectRTCP` use.
    ///   - remote: the peer's: what `unprotectRTP`/`unprotectRTCP` use.
    ///   - replayWindow: packets remembered for replay detection (libsrtp allows 64...32768).
    ///   - allowRepeatedTransmission: lets the same packet be protected twice (NACK
    ///     retransmissions of an unchanged packet; libsrtp's `allow_repeat_tx`).
    public init(profile: SRTPProtectionProfile, local: SRTPKeyingMaterial, remote: SRTPKeyingMaterial,
                replayWindow: Int = 1024, allowRepeatedTransmission: Bool = true) throws(SRTPError)
    {
        try SRTPLibrary.ensureInitialized()
        guard local.fits(profile), remote.fits(profile) else {
            throw .badKeys("\(profile) needs a \(profile.masterKeyLength)-byte key and a \(profile.masterSaltLength)-byte salt, "
                + "got \(local) and \(remote)")
        }
        guard (64...0x8000).contains(replayWindow) else { throw .badKeys("replay window \(replayWindow) is not in 64...32768") }
        self.profile = profile
        outbound = try Self.create(profile: profile, keys: local, direction: ssrc_any_outbound, window: replayWindow,
                                   allowRepeat: allowRepeatedTransmission)
        do {
            inbound = try Self.create(profile: profile, keys: remote, direction: ssrc_any_inbound, window: replayWindow,
                                      allowRepeat: false)
        } catch {
            srtp_dealloc(outbound)
            throw error
        }
    }

    deinit {
        srtp_dealloc(outbound)
        srtp_dealloc(inbound)
    }

    /// Encrypts and authenticates an RTP packet (`srtp_protect`): the result is `profile.rtpOverhead`
    /// bytes longer.
    public func protectRTP(_ packet: [UInt8]) throws(SRTPError) -> [UInt8] {
        try Self.checkRTPHeader(packet, trailer: 0)
        return try run(srtp_protect, outbound, packet, "srtp_protect")
    }

    /// Checks and decrypts an SRTP packet (`srtp_unprotect`). Throws `.authenticationFailed` for a
    /// damaged or forged packet and `.replay` for one already seen.
    public func unprotectRTP(_ packet: [UInt8]) throws(SRTPError) -> [UInt8] {
        try Self.checkRTPHeader(packet, trailer: profile.rtpOverhead)
        return try run(srtp_unprotect, inbound, packet, "srtp_unprotect")
    }

    /// Encrypts and authenticates a (compound) RTCP packet (`srtp_protect_rtcp`): the result is
    /// `profile.rtcpOverhead` bytes longer.
    public func protectRTCP(_ packet: [UInt8]) throws(SRTPError) -> [UInt8] {
        try Self.checkRTCPHeader(packet, trailer: 0)
        return try run(srtp_protect_rtcp, outbound, packet, "srtp_protect_rtcp")
    }

    /// Checks and decrypts an SRTCP packet (`srtp_unprotect_rtcp`).
    public func unprotectRTCP(_ packet: [UInt8]) throws(SRTPError) -> [UInt8] {
        try Self.checkRTCPHeader(packet, trailer: profile.rtcpOverhead)
        return try run(srtp_unprotect_rtcp, inbound, packet, "srtp_unprotect_rtcp")
    }

    /// Runs one libsrtp call on a copy with room for the trailer libsrtp may write.
    private func run(_ function: (srtp_t?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int32>?) -> srtp_err_status_t,
                     _ session: OpaquePointer, _ packet: [UInt8], _ name: String) throws(SRTPError) -> [UInt8]
    {
        let capacity = packet.count + Self.trailerRoom
        var length = Int32(packet.count)
        var status = srtp_err_status_ok
        let result = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            packet.withUnsafeBytes { UnsafeMutableRawBufferPointer(buffer).copyMemory(from: $0) }
            status = function(session, buffer.baseAddress, &length)
            // libsrtp wrote (or kept) exactly `length` bytes; on failure none are returned.
            initialized = status == srtp_err_status_ok && length >= 0 ? min(Int(length), capacity) : 0
        }
        guard status == srtp_err_status_ok else { throw SRTPError.status(Int32(status.rawValue), during: name) }
        return result
    }

    private static func create(profile: SRTPProtectionProfile, keys: SRTPKeyingMaterial, direction: srtp_ssrc_type_t,
                               window: Int, allowRepeat: Bool) throws(SRTPError) -> OpaquePointer
    {
        var policy = srtp_policy_t()
        switch profile {
        case .aes128CMHMACSHA1_80:
            revue_srtp_policy_aes_cm_128_hmac_sha1_80(&policy.rtp)
            revue_srtp_policy_aes_cm_128_hmac_sha1_80(&policy.rtcp)
        case .aeadAES128GCM:
            revue_srtp_policy_aead_aes_128_gcm(&policy.rtp)
            revue_srtp_policy_aead_aes_128_gcm(&policy.rtcp)
        }
        policy.ssrc.type = direction
        policy.window_size = UInt(window)
        policy.allow_repeat_tx = allowRepeat ? 1 : 0
        policy.next = nil
        // libsrtp reads key‖salt as one buffer and copies it into the session.
        var key = keys.masterKey + keys.masterSalt
        var session: OpaquePointer?
        let status = key.withUnsafeMutableBufferPointer { buffer in
            policy.key = buffer.baseAddress
            return srtp_create(&session, &policy)
        }
        for index in key.indices { key[index] = 0 }
        guard status == srtp_err_status_ok, let session else {
            throw SRTPError.status(Int32(status.rawValue), during: "srtp_create")
        }
        return session
    }

    /// RFC 3550 §5.1: version 2, the CSRC list and any header extension inside the packet, and room
    /// for `trailer` more bytes (the tag when unprotecting). libsrtp also checks; checking here
    /// keeps hostile lengths away from it.
    private static func checkRTPHeader(_ packet: [UInt8], trailer: Int) throws(SRTPError) {
        guard packet.count >= 12 else { throw .badPacket("RTP packet of \(packet.count) bytes, at least 12 needed") }
        guard packet[0] >> 6 == 2 else { throw .badPacket("RTP version \(packet[0] >> 6), expected 2") }
        var header = 12 + 4 * Int(packet[0] & 0x0F)
        if packet[0] & 0x10 != 0 {
            guard packet.count >= header + 4 else { throw .badPacket("RTP header extension past the end") }
            header += 4 + 4 * (Int(packet[header + 2]) << 8 | Int(packet[header + 3]))
        }
        guard packet.count >= header + trailer else {
            throw .badPacket("RTP packet of \(packet.count) bytes, its header and trailer need \(header + trailer)")
        }
    }

    /// RFC 3550 §6.4: version 2 and at least a header and sender SSRC, plus `trailer` bytes.
    private static func checkRTCPHeader(_ packet: [UInt8], trailer: Int) throws(SRTPError) {
        guard packet.count >= 8 + trailer else {
            throw .badPacket("RTCP packet of \(packet.count) bytes, at least \(8 + trailer) needed")
        }
        guard packet[0] >> 6 == 2 else { throw .badPacket("RTCP version \(packet[0] >> 6), expected 2") }
    }
}
