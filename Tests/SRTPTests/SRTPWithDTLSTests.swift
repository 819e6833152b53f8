import DTLS
import SRTP
import TestKit
import Testing

/// SRTP keyed by a real DTLS-SRTP handshake (RFC 5764 §4.2): what one side protects the other
/// unprotects, in both directions.
@Suite struct SRTPWithDTLSTests {
    /// Handshakes a client and a server in memory and returns both sides' keys.
    static func handshake(serverProfiles: [SRTPProtectionProfile]) throws -> (client: DTLSKeys, server: DTLSKeys) {
        let clientCertificate = try DTLSCertificate(), serverCertificate = try DTLSCertificate()
        let client = try DTLSSession(context: try DTLSContext(certificate: clientCertificate), role: .client,
                                     remoteFingerprints: [serverCertificate.fingerprint])
        let server = try DTLSSession(context: try DTLSContext(certificate: serverCertificate, profiles: serverProfiles),
                                     role: .server, remoteFingerprints: [clientCertificate.fingerprint])
        var clientKeys: DTLSKeys?, serverKeys: DTLSKeys?
        var toServer = client.start(now: 0), toClient: [DTLSAction] = []
        for _ in 0..<10 {
            for case .send(let datagram) in toServer { toClient += server.receive(datagram, now: 0) }
            toServer = []
            for case .send(let datagram) in toClient { toServer += client.receive(datagram, now: 0) }
            for case .connected(let keys) in toClient { serverKeys = keys }
            for case .connected(let keys) in toServer { clientKeys = keys }
            toClient = []
        }
        return (try #require(clientKeys), try #require(serverKeys))
    }

    @Test(arguments: SRTPProtectionProfile.allCases)
    func keysFromAHandshakeWorkBothWays(profile: SRTPProtectionProfile) throws {
        let (clientKeys, serverKeys) = try Self.handshake(serverProfiles: [profile])
        #expect(clientKeys.profile == profile && serverKeys.profile == profile)
        let client = try SRTPSession(profile: clientKeys.profile, local: clientKeys.local, remote: clientKeys.remote)
        let server = try SRTPSession(profile: serverKeys.profile, local: serverKeys.local, remote: serverKeys.remote)
        let packet = SRTPSessionTests.rtp(sequence: 42)
        #expect(try server.unprotectRTP(try client.protectRTP(packet)) == packet)
        #expect(try client.unprotectRTP(try server.protectRTP(packet)) == packet)
        #expect(try server.unprotectRTCP(try client.protectRTCP(SRTPSessionTests.rtcp)) == SRTPSessionTests.rtcp)
        // A side cannot read its own packets: the directions have different keys.
        #expect(throws: SRTPError.authenticationFailed) { try client.unprotectRTP(try client.protectRTP(SRTPSessionTests.rtp(sequence: 43))) }
    }

    /// 100,000 mutated SRTP and SRTCP packets into unprotect (they come from the network): each
    /// must be refused with an error, never crash, and never be accepted when changed.
    @Test(arguments: SRTPProtectionProfile.allCases)
    func unprotectSurvivesMutations(profile: SRTPProtectionProfile) throws {
        let (sender, receiver) = try SRTPSessionTests.pair(profile)
        let rtpSeeds = try (0..<4).map { try sender.protectRTP(SRTPSessionTests.rtp(sequence: UInt16(100 + $0))) }
        let rtcpSeeds = try (0..<4).map { _ in try sender.protectRTCP(SRTPSessionTests.rtcp) }
        var generator = SeededGenerator(seed: 3711)
        var accepted = 0
        for round in 0..<50_000 {
            let seed = rtpSeeds[round % rtpSeeds.count]
            let input = round % 10 == 0 ? generator.bytes(Int(generator.next() % 80)) : generator.mutate(seed)
            if (try? receiver.unprotectRTP(input)) != nil {
                accepted += 1
                #expect(input == seed)
            }
            let rtcpSeed = rtcpSeeds[round % rtcpSeeds.count]
            let rtcpInput = generator.mutate(rtcpSeed)
            if (try? receiver.unprotectRTCP(rtcpInput)) != nil {
                accepted += 1
                #expect(rtcpInput == rtcpSeed)
            }
        }
        // At most each seed once (a mutation that changed nothing); replays are refused.
        #expect(accepted <= rtpSeeds.count + rtcpSeeds.count)
    }
}
