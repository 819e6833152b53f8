import Net
import STUN
import TestKit
import Testing

/// 100,000 random and mutated datagrams into the parser and the integrity checks: each must return or
/// throw, never crash, and whatever parses must serialise and parse back the same.
@Suite struct STUNFuzzTests {
    static let rounds = 100_000

    @Test func parserSurvivesMutations() throws {
        let key = Array("VOkJxbRl1RmTxUk/WvJxBt".utf8)
        let id = try #require(STUNTransactionID(bytes: bytes("b7e7a701bc34d686fa87dfae")))
        let seeds: [[UInt8]] = [
            RFC5769Tests.request, RFC5769Tests.ipv4Response, RFC5769Tests.ipv6Response,
            try STUNMessage(type: .bindingError, transactionID: id, attributes: [
                .errorCode(.unknownAttribute), .unknownAttributes([0x0014, 0x0015]), .mappedAddress(SocketAddress(ip: .loopbackV4, port: 9)),
                .other(type: 0xC001, value: [0, 0, 0, 1]),
            ]).marshal(integrityKey: key, fingerprint: true),
            try STUNMessage(type: .bindingSuccess, transactionID: id, attributes: [
                .xorMappedAddress(SocketAddress(ip: .loopbackV6, port: 5000)), .messageIntegrity([UInt8](repeating: 2, count: 20)),
                .messageIntegritySHA256([UInt8](repeating: 1, count: 32)), .fingerprint(0),
            ]).marshal(),
        ]
        var generator = SeededGenerator(seed: 8489)
        var parsed = 0
        var verified = 0
        for round in 0..<Self.rounds {
            let input: [UInt8]
            if round % 10 == 0 {
                // Random bytes behind a valid-looking header reach the attribute parser.
                let body = generator.bytes(4 * Int(generator.next() % 16))
                input = [0x00, 0x01, 0x00, UInt8(body.count), 0x21, 0x12, 0xA4, 0x42] + generator.bytes(12) + body
            } else {
                input = generator.mutate(seeds[round % seeds.count])
            }
            _ = STUNMessage.looksLikeSTUN(input)
            guard let message = try? STUNMessage(parsing: input) else { continue }
            parsed += 1
            if message.verifyIntegrity(key: key) { verified += 1 }
            _ = message.verifyFingerprint()
            _ = message.unknownComprehensionRequired
            let wire = try message.marshal()
            #expect(try STUNMessage(parsing: wire) == message)
        }
        #expect(parsed > 1_000)
        #expect(verified > 0)
    }
}
