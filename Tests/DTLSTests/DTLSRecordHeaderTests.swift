import DTLS
import TestSupport
import Testing

@Suite struct DTLSRecordHeaderTests {
    /// A ChangeCipherSpec record, written out by hand from RFC 6347 §4.1.
    static let changeCipherSpec: [UInt8] = [0x14, 0xFE, 0xFD, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x00, 0x01, 0x01]

    @Test func readsEveryField() throws {
        let header = try DTLSRecordHeader(parsing: [0x17, 0xFE, 0xFD, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x12, 0x34, 0x00, 0x02, 0xAA, 0xBB])
        #expect(header == DTLSRecordHeader(contentType: .applicationData, version: 0xFEFD, epoch: 1, sequenceNumber: 0x1234, length: 2))
        #expect(header.marshal() == [0x17, 0xFE, 0xFD, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x12, 0x34, 0x00, 0x02])
    }

    @Test func splitsADatagramIntoRecords() throws {
        let datagram = Self.changeCipherSpec + [0x16, 0xFE, 0xFD, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 1, 2, 3]
        let records = try DTLSRecordHeader.parseDatagram(datagram)
        #expect(records.map(\.contentType) == [.changeCipherSpec, .handshake])
        #expect(records.map(\.epoch) == [0, 1])
        #expect(records.map(\.sequenceNumber) == [5, 0])
    }

    @Test func refusesWhatIsNotDTLS() {
        #expect(throws: DTLSRecordError.truncated("record header", needed: 13, available: 0)) { try DTLSRecordHeader.parseDatagram([]) }
        // A STUN binding request's first bytes.
        #expect(throws: DTLSRecordError.unknownContentType(0)) {
            try DTLSRecordHeader.parseDatagram([0x00, 0x01, 0x00, 0x00, 0x21, 0x12, 0xA4, 0x42, 0, 0, 0, 0, 0])
        }
        // TLS 1.2 over TCP, not DTLS.
        #expect(throws: DTLSRecordError.badVersion(0x0303)) {
            try DTLSRecordHeader.parseDatagram([0x16, 0x03, 0x03, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        }
        // A DTLS 1.3 unified header (RFC 9147 §4): 0b001CSLEE.
        #expect(throws: DTLSRecordError.unknownContentType(0x2F)) {
            try DTLSRecordHeader.parseDatagram([0x2F, 0x12, 0x34, 0, 4, 1, 2, 3, 4, 0, 0, 0, 0])
        }
        // A fragment longer than the datagram, and one trailing byte.
        #expect(throws: DTLSRecordError.truncated("record fragment", needed: 2, available: 1)) {
            try DTLSRecordHeader.parseDatagram([0x14, 0xFE, 0xFD, 0, 0, 0, 0, 0, 0, 0, 5, 0x00, 0x02, 0x01])
        }
        #expect(throws: DTLSRecordError.truncated("record header", needed: 13, available: 1)) {
            try DTLSRecordHeader.parseDatagram(Self.changeCipherSpec + [0x16])
        }
        #expect(throws: DTLSRecordError.tooLong(0xFFFF)) {
            try DTLSRecordHeader.parseDatagram([0x17, 0xFE, 0xFD, 0, 1, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF])
        }
    }

    @Test func demultiplexesByFirstByte() {
        // RFC 7983 §7: STUN 0...3, DTLS 20...63, RTP/RTCP 128...191.
        #expect(!DTLSRecordHeader.isDTLS(firstByte: 0x01))
        #expect(DTLSRecordHeader.isDTLS(firstByte: 22))
        #expect(!DTLSRecordHeader.isDTLS(firstByte: 0x80))
    }

    /// 100,000 inputs: datagrams from a real in-memory handshake (witnessed), mutated, plus
    /// random bytes. The parser must return or throw, and whatever parses must describe exactly
    /// the bytes it came from.
    @Test func survivesMutatedAndRandomDatagrams() throws {
        let peers = try DTLSTestPeers()
        peers.handshake()
        _ = peers.fromClient(try peers.client.send(applicationData: [1, 2, 3]))
        let seeds = peers.clientDatagrams + peers.serverDatagrams + [Self.changeCipherSpec]
        #expect(seeds.count >= 5)
        var generator = SeededGenerator(seed: 6347)
        var parsed = 0
        for round in 0..<100_000 {
            let input = round % 10 == 0
                ? generator.bytes(Int(generator.next() % 64))
                : generator.mutate(seeds[round % seeds.count])
            guard let records = try? DTLSRecordHeader.parseDatagram(input) else { continue }
            parsed += 1
            #expect(records.reduce(0) { $0 + DTLSRecordHeader.size + Int($1.length) } == input.count)
            #expect(Array(input.prefix(DTLSRecordHeader.size)) == records[0].marshal())
        }
        #expect(parsed > 1_000)
    }

    /// 10,000 mutated handshake datagrams into fresh server sessions (OpenSSL parses what ours
    /// lets through): nothing may crash; fatal errors come back as `.failed`.
    @Test func aServerSurvivesMutatedHandshakes() throws {
        let peers = try DTLSTestPeers()
        peers.handshake()
        let seeds = peers.clientDatagrams
        let context = try DTLSContext(certificate: DTLSTestPeers.serverCertificate)
        var generator = SeededGenerator(seed: 5764)
        var failures = 0, discarded = 0, answered = 0
        for round in 0..<10_000 {
            let server = try DTLSSession(context: context, role: .server, remoteFingerprints: [DTLSTestPeers.clientCertificate.fingerprint])
            let actions = server.receive(generator.mutate(seeds[0]), now: 0)
                + server.receive(generator.mutate(seeds[round % seeds.count]), now: 0)
            if DTLSTestPeers.failure(in: actions) != nil { failures += 1 }
            if actions.contains(where: { if case .send = $0 { true } else { false } }) { answered += 1 }
            discarded += server.discardedDatagrams
        }
        #expect(failures > 0, "some mutations are fatal handshake errors, reported as .failed")
        #expect(discarded > 0, "some never reach OpenSSL")
        #expect(answered > 0, "some still read as a ClientHello")
    }
}
