import DTLS
import TestSupport
import Testing

/// Chromium offers DTLS 1.3 first (supported_versions FEFC, FEFD) with an X25519MLKEM768 key
/// share, which makes its ClientHello about 1.4 KB and so fragmented (research §8). OpenSSL 3.0
/// has no DTLS 1.3: the server must answer such a ClientHello, fed to it in fragments, with a
/// DTLS 1.2 ServerHello. The ClientHello here is invented, laid out as RFC 9147 §5.3 and
/// RFC 8446 §4.1.2 describe, with Chromium's extension set.
@Suite struct DTLS13ClientHelloTests {
    /// Appends a 2-byte length, then `body`.
    static func vector16(_ body: [UInt8]) -> [UInt8] { [UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body }
    static func uint16(_ value: Int) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    static func uint24(_ value: Int) -> [UInt8] { [UInt8(value >> 16), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)] }
    static func extensionBlock(_ type: Int, _ data: [UInt8]) -> [UInt8] { uint16(type) + vector16(data) }

    /// A ClientHello body offering DTLS 1.3 and 1.2.
    static func clientHelloBody() -> [UInt8] {
        var random = SeededGenerator(seed: 13)
        let suites = [0x1301, 0x1302, 0x1303, 0xC02B, 0xC02F, 0xCCA9, 0xCCA8, 0xC009, 0xC013, 0xC00A, 0xC014, 0x009C,
                      0x009D, 0x002F, 0x0035]
        let keyShares = uint16(0x11EC) + vector16(random.bytes(1216)) + uint16(0x001D) + vector16(random.bytes(32))
        let extensions: [UInt8] =
            extensionBlock(0x002B, [4, 0xFE, 0xFC, 0xFE, 0xFD]) // supported_versions: DTLS 1.3, 1.2
            + extensionBlock(0x000A, vector16([0x11EC, 0x001D, 0x0017, 0x0018].flatMap(uint16))) // supported_groups
            + extensionBlock(0x0033, vector16(keyShares)) // key_share (1.3 only)
            + extensionBlock(0x000D, vector16([0x0403, 0x0804, 0x0401, 0x0503, 0x0805, 0x0501, 0x0806, 0x0601].flatMap(uint16)))
            + extensionBlock(0x000E, vector16([0x0007, 0x0008, 0x0001, 0x0002].flatMap(uint16)) + [0]) // use_srtp, no MKI
            + extensionBlock(0x0017, []) // extended_master_secret
            + extensionBlock(0xFF01, [0]) // renegotiation_info
            + extensionBlock(0x000B, [1, 0]) // ec_point_formats: uncompressed
        return [0xFE, 0xFD] + random.bytes(32)
            + [0] // legacy_session_id
            + [0] // legacy_cookie
            + vector16(suites.flatMap(uint16))
            + [1, 0] // compression: null
            + vector16(extensions)
    }

    /// The body cut into handshake fragments (RFC 6347 §4.2.2), each in its own record
    /// (version FEFF, as an initial ClientHello may use; RFC 9147 §5.1).
    static func fragmentedRecords(_ body: [UInt8], cuts: [Int]) -> [[UInt8]] {
        let bounds = [0] + cuts + [body.count]
        return (0..<bounds.count - 1).map { index in
            let fragment = Array(body[bounds[index]..<bounds[index + 1]])
            let handshake = [1] + uint24(body.count) + uint16(0) + uint24(bounds[index]) + uint24(fragment.count) + fragment
            let header = DTLSRecordHeader(contentType: .handshake, version: 0xFEFF, epoch: 0, sequenceNumber: UInt64(index),
                                          length: UInt16(handshake.count))
            return header.marshal() + handshake
        }
    }

    /// A ServerHello's version, cipher suite and extension types, read from the first record.
    struct ServerHello {
        var version: UInt16
        var cipherSuite: UInt16
        var extensions: [UInt16: [UInt8]]

        init(_ datagram: [UInt8]) throws {
            let record = try DTLSRecordHeader(parsing: datagram)
            guard record.contentType == .handshake, datagram.count > 13 + 12 + 38, datagram[13] == 2 else {
                throw TestFailure("the first record is not a ServerHello")
            }
            var offset = 13 + 12
            func take(_ count: Int) throws -> [UInt8] {
                guard offset + count <= datagram.count else { throw TestFailure("ServerHello truncated") }
                defer { offset += count }
                return Array(datagram[offset..<offset + count])
            }
            func number(_ bytes: [UInt8]) -> Int { bytes.reduce(0) { $0 << 8 | Int($1) } }
            version = UInt16(number(try take(2)))
            _ = try take(32)
            _ = try take(number(try take(1)))
            cipherSuite = UInt16(number(try take(2)))
            _ = try take(1)
            let end = number(try take(2)) + offset
            extensions = [:]
            while offset < end {
                let type = UInt16(number(try take(2)))
                extensions[type] = try take(number(try take(2)))
            }
        }
    }

    static func server() throws -> DTLSSession {
        let context = try DTLSContext(certificate: DTLSTestPeers.serverCertificate)
        return try DTLSSession(context: context, role: .server, remoteFingerprints: [DTLSTestPeers.clientCertificate.fingerprint])
    }

    static func checkAnswer(_ actions: [DTLSAction]) throws {
        let datagrams = actions.compactMap { if case .send(let datagram) = $0 { datagram } else { nil } }
        #expect(!datagrams.isEmpty)
        let hello = try ServerHello(try #require(datagrams.first))
        #expect(hello.version == 0xFEFD, "DTLS 1.2")
        #expect(hello.extensions[0x002B] == nil, "no supported_versions: that would mean 1.3")
        #expect(hello.cipherSuite >> 8 != 0x13, "a TLS 1.2 suite, not a 1.3 one")
        // use_srtp: the server's first choice the client offered, GCM (RFC 5764 §4.1.1 layout).
        #expect(hello.extensions[0x000E] == [0, 2, 0, 7, 0])
        for datagram in datagrams {
            #expect(datagram.count <= 1200)
            for record in try DTLSRecordHeader.parseDatagram(datagram) { #expect(record.version == 0xFEFD) }
        }
    }

    @Test func theClientHelloLooksLikeChromiums() {
        let body = Self.clientHelloBody()
        #expect(body.count > 1200, "too big for one 1200-byte datagram, so it must be fragmented")
    }

    @Test func fragmentsInTwoDatagramsGetADTLS12ServerHello() throws {
        let server = try Self.server()
        let body = Self.clientHelloBody()
        let records = Self.fragmentedRecords(body, cuts: [body.count / 2])
        #expect(server.receive(records[0], now: 0) == [], "half a ClientHello: wait for the rest")
        #expect(server.state == .handshaking)
        try Self.checkAnswer(server.receive(records[1], now: 0))
        #expect(server.discardedDatagrams == 0)
    }

    @Test func fragmentsOutOfOrderInOneDatagramGetADTLS12ServerHello() throws {
        let server = try Self.server()
        let body = Self.clientHelloBody()
        // Three fragments; the last first, all in one (oversized) datagram.
        let records = Self.fragmentedRecords(body, cuts: [500, 1000])
        try Self.checkAnswer(server.receive(records[2] + records[0] + records[1], now: 0))
    }
}
