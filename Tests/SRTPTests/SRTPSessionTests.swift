import SRTP
import TestKit
import Testing

@Suite struct SRTPSessionTests {
    static func keys(_ profile: SRTPProtectionProfile, seed: UInt8) -> SRTPKeyingMaterial {
        SRTPKeyingMaterial(masterKey: (0..<profile.masterKeyLength).map { UInt8($0) &+ seed },
                           masterSalt: (0..<profile.masterSaltLength).map { UInt8($0) &* 3 &+ seed })
    }

    /// A sender and a receiver with mirrored keys, as the two ends of a DTLS-SRTP transport.
    static func pair(_ profile: SRTPProtectionProfile, allowRepeat: Bool = true) throws -> (sender: SRTPSession, receiver: SRTPSession) {
        let a = keys(profile, seed: 1), b = keys(profile, seed: 100)
        return (try SRTPSession(profile: profile, local: a, remote: b, allowRepeatedTransmission: allowRepeat),
                try SRTPSession(profile: profile, local: b, remote: a))
    }

    /// RTP: V=2, PT 96, the given sequence number, timestamp, SSRC 0x11223344, then a payload.
    static func rtp(sequence: UInt16, payload: [UInt8] = Array(repeating: 0x5A, count: 40)) -> [UInt8] {
        [0x80, 0x60, UInt8(sequence >> 8), UInt8(sequence & 0xFF), 0, 0, 0x10, 0x00, 0x11, 0x22, 0x33, 0x44] + payload
    }

    /// A receiver report (RFC 3550 §6.4.2) with no report blocks, plus an SDES CNAME.
    static let rtcp = bytes("80c90001 11223344 81ca0003 11223344 01046572 696e0000")

    @Test(arguments: SRTPProtectionProfile.allCases)
    func rtpRoundTrip(profile: SRTPProtectionProfile) throws {
        let (sender, receiver) = try Self.pair(profile)
        for sequence in [UInt16(1), 2, 3, 0xFFFF, 0] {
            let packet = Self.rtp(sequence: sequence)
            let protected = try sender.protectRTP(packet)
            #expect(protected.count == packet.count + profile.rtpOverhead)
            #expect(Array(protected.prefix(12)) == Array(packet.prefix(12)), "the header stays in the clear")
            #expect(Array(protected[12..<packet.count]) != Array(packet[12...]), "the payload is encrypted")
            #expect(try receiver.unprotectRTP(protected) == packet)
        }
    }

    @Test(arguments: SRTPProtectionProfile.allCases)
    func rtcpRoundTrip(profile: SRTPProtectionProfile) throws {
        let (sender, receiver) = try Self.pair(profile)
        for _ in 0..<3 {
            let protected = try sender.protectRTCP(Self.rtcp)
            #expect(protected.count == Self.rtcp.count + profile.rtcpOverhead)
            #expect(Array(protected.prefix(8)) == Array(Self.rtcp.prefix(8)), "the first header and SSRC stay in the clear")
            #expect(try receiver.unprotectRTCP(protected) == Self.rtcp)
        }
    }

    @Test(arguments: SRTPProtectionProfile.allCases)
    func aFlippedBitFailsAuthentication(profile: SRTPProtectionProfile) throws {
        let (sender, receiver) = try Self.pair(profile)
        let protected = try sender.protectRTP(Self.rtp(sequence: 7))
        for position in [1, 12, protected.count - 1] {
            var damaged = protected
            damaged[position] ^= 0x04
            #expect(throws: SRTPError.authenticationFailed) { try receiver.unprotectRTP(damaged) }
        }
        // The undamaged packet still passes: failures change nothing.
        #expect(try receiver.unprotectRTP(protected) == Self.rtp(sequence: 7))
        var rtcp = try sender.protectRTCP(Self.rtcp)
        rtcp[10] ^= 0x80
        #expect(throws: SRTPError.authenticationFailed) { try receiver.unprotectRTCP(rtcp) }
    }

    @Test(arguments: SRTPProtectionProfile.allCases)
    func aReplayedPacketIsRefused(profile: SRTPProtectionProfile) throws {
        let (sender, receiver) = try Self.pair(profile)
        let protected = try sender.protectRTP(Self.rtp(sequence: 500))
        _ = try receiver.unprotectRTP(protected)
        #expect(throws: SRTPError.replay) { try receiver.unprotectRTP(protected) }
        let rtcp = try sender.protectRTCP(Self.rtcp)
        _ = try receiver.unprotectRTCP(rtcp)
        #expect(throws: SRTPError.replay) { try receiver.unprotectRTCP(rtcp) }
        // Far behind the 1024-packet window.
        for sequence in 501...2000 { _ = try receiver.unprotectRTP(try sender.protectRTP(Self.rtp(sequence: UInt16(sequence)))) }
        let old = try Self.pair(profile).sender.protectRTP(Self.rtp(sequence: 600))
        #expect(throws: SRTPError.self) { try receiver.unprotectRTP(old) }
    }

    @Test func retransmissionsOfTheSamePacketNeedAllowRepeat() throws {
        let (sender, _) = try Self.pair(.aes128CMHMACSHA1_80, allowRepeat: true)
        let packet = Self.rtp(sequence: 9)
        #expect(try sender.protectRTP(packet) == sender.protectRTP(packet))
        let (strict, _) = try Self.pair(.aes128CMHMACSHA1_80, allowRepeat: false)
        _ = try strict.protectRTP(packet)
        #expect(throws: SRTPError.replay) { try strict.protectRTP(packet) }
    }

    @Test func wrongKeysAreRefused() throws {
        let cm = Self.keys(.aes128CMHMACSHA1_80, seed: 1)
        #expect(throws: SRTPError.badKeys) { try SRTPSession(profile: .aeadAES128GCM, local: cm, remote: cm) }
        let gcm = Self.keys(.aeadAES128GCM, seed: 1)
        #expect(throws: SRTPError.badKeys) { try SRTPSession(profile: .aes128CMHMACSHA1_80, local: gcm, remote: gcm) }
        #expect(throws: SRTPError.badKeys) { try SRTPSession(profile: .aeadAES128GCM, local: gcm, remote: gcm, replayWindow: 10) }
        // Keys never show in descriptions.
        #expect("\(cm)" == "SRTPKeyingMaterial(16-byte key, 14-byte salt)")
    }

    @Test func wrongKeysFailAuthentication() throws {
        let (sender, _) = try Self.pair(.aeadAES128GCM)
        let stranger = try SRTPSession(profile: .aeadAES128GCM, local: Self.keys(.aeadAES128GCM, seed: 9),
                                       remote: Self.keys(.aeadAES128GCM, seed: 9))
        #expect(throws: SRTPError.authenticationFailed) { try stranger.unprotectRTP(try sender.protectRTP(Self.rtp(sequence: 1))) }
    }

    @Test func malformedPacketsAreRefusedBeforeLibsrtp() throws {
        let (sender, receiver) = try Self.pair(.aes128CMHMACSHA1_80)
        #expect(throws: SRTPError.badPacket) { try sender.protectRTP([0x80, 0x60, 0]) }
        #expect(throws: SRTPError.badPacket) { try sender.protectRTP([0x40] + Array(repeating: 0, count: 20)) }
        // CSRC count 15 and no CSRCs.
        #expect(throws: SRTPError.badPacket) { try sender.protectRTP([0x8F] + Array(repeating: 0, count: 20)) }
        // An extension header claiming 0xFFFF words.
        #expect(throws: SRTPError.badPacket) {
            try sender.protectRTP([0x90, 0x60, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0xBE, 0xDE, 0xFF, 0xFF, 0, 0, 0, 0])
        }
        // No room for the tag.
        #expect(throws: SRTPError.badPacket) { try receiver.unprotectRTP(Self.rtp(sequence: 1, payload: [])) }
        #expect(throws: SRTPError.badPacket) { try receiver.unprotectRTCP(Array(Self.rtcp.prefix(12))) }
        #expect(throws: SRTPError.badPacket) { try sender.protectRTCP([0x80, 0xC9, 0, 1]) }
    }

    @Test func descriptionsAreReadable() {
        #expect(SRTPError.authenticationFailed.description == "SRTP: authentication failed")
        #expect(SRTPProtectionProfile.aes128CMHMACSHA1_80.description == "SRTP_AES128_CM_HMAC_SHA1_80")
        #expect(SRTPProtectionProfile(id: 0x0007) == .aeadAES128GCM)
        #expect(SRTPProtectionProfile(id: 0x0002) == nil)
    }
}
