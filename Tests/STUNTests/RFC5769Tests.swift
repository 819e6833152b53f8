import Net
import STUN
import TestKit
import Testing

/// The sample messages of RFC 5769 (Test Vectors for STUN), §2.1–§2.3, copied from the RFC.
/// Their padding bytes are spaces (0x20), so rebuilding them byte for byte passes `padding: 0x20`.
@Suite struct RFC5769Tests {
    static let password = Array("VOkJxbRl1RmTxUk/WvJxBt".utf8)
    static let transactionID = STUNTransactionID(bytes: bytes("b7e7a701 bc34d686 fa87dfae"))

    /// §2.1 Sample Request: SOFTWARE "STUN test client", PRIORITY, ICE-CONTROLLED, USERNAME "evtj:h6vY".
    static let request = bytes("""
        00010058 2112a442 b7e7a701 bc34d686 fa87dfae
        80220010 5354554e 20746573 7420636c 69656e74
        00240004 6e0001ff
        80290008 932ff9b1 51263b36
        00060009 6576746a 3a683676 59202020
        00080014 9aeaa70c bfd8cb56 781ef2b5 b2d3f249 c1b571a2
        80280004 e57a3bcf
        """)

    /// §2.2 Sample IPv4 Response: SOFTWARE "test vector", XOR-MAPPED-ADDRESS 192.0.2.1:32853.
    static let ipv4Response = bytes("""
        0101003c 2112a442 b7e7a701 bc34d686 fa87dfae
        8022000b 74657374 20766563 746f7220
        00200008 0001a147 e112a643
        00080014 2b91f599 fd9e90c3 8c7489f9 2af9ba53 f06be7d7
        80280004 c07d4c96
        """)

    /// §2.3 Sample IPv6 Response: XOR-MAPPED-ADDRESS [2001:db8:1234:5678:11:2233:4455:6677]:32853.
    static let ipv6Response = bytes("""
        01010048 2112a442 b7e7a701 bc34d686 fa87dfae
        8022000b 74657374 20766563 746f7220
        00200014 0002a147 0113a9fa a5d3f179 bc25f4b5 bed2b9d9
        00080014 a382954e 4be67bf1 1784c97c 8292c275 bfe3ed41
        80280004 c8fb0b4c
        """)

    @Test func sampleRequestParsesVerifiesAndRebuilds() throws {
        let message = try STUNMessage(parsing: Self.request)
        #expect(message.type == .bindingRequest)
        #expect(message.transactionID == Self.transactionID)
        #expect(message.software == "STUN test client")
        #expect(message.priority == 0x6E00_01FF)
        #expect(message.iceControlled == 0x932F_F9B1_5126_3B36)
        #expect(message.username == "evtj:h6vY")
        #expect(message.fingerprint == 0xE57A_3BCF)
        #expect(message.unknownComprehensionRequired.isEmpty)
        #expect(message.verifyIntegrity(key: Self.password))
        #expect(message.verifyFingerprint())
        #expect(!message.verifyIntegrity(key: Array("VOkJxbRl1RmTxUk/WvJxBu".utf8)))

        let transactionID = try #require(Self.transactionID)
        let rebuilt = STUNMessage(type: .bindingRequest, transactionID: transactionID, attributes: [
            .software("STUN test client"), .priority(0x6E00_01FF), .iceControlled(0x932F_F9B1_5126_3B36),
            .username("evtj:h6vY"),
        ])
        #expect(try rebuilt.marshal(integrityKey: Self.password, fingerprint: true, padding: 0x20) == Self.request)
    }

    @Test(arguments: [
        (ipv4Response, SocketAddress("192.0.2.1:32853")),
        (ipv6Response, SocketAddress("[2001:db8:1234:5678:11:2233:4455:6677]:32853")),
    ])
    func sampleResponsesParseVerifyAndRebuild(wire: [UInt8], mapped: SocketAddress?) throws {
        let mapped = try #require(mapped)
        let message = try STUNMessage(parsing: wire)
        #expect(message.type == .bindingSuccess)
        #expect(message.software == "test vector")
        #expect(message.xorMappedAddress == mapped)
        #expect(message.verifyIntegrity(key: Self.password))
        #expect(message.verifyFingerprint())

        let transactionID = try #require(Self.transactionID)
        let rebuilt = STUNMessage(type: .bindingSuccess, transactionID: transactionID,
                                  attributes: [.software("test vector"), .xorMappedAddress(mapped)])
        #expect(try rebuilt.marshal(integrityKey: Self.password, fingerprint: true, padding: 0x20) == wire)
    }

    /// One flipped bit anywhere breaks FINGERPRINT; anywhere before FINGERPRINT it breaks MESSAGE-INTEGRITY too.
    @Test func anyChangedBitIsCaught() {
        var parsed = 0
        for index in Self.request.indices {
            var tampered = Self.request
            tampered[index] ^= 0x01
            guard let message = try? STUNMessage(parsing: tampered) else { continue }
            parsed += 1
            #expect(!message.verifyFingerprint(), "byte \(index)")
            if index < Self.request.count - 8 { #expect(!message.verifyIntegrity(key: Self.password), "byte \(index)") }
        }
        #expect(parsed > 80)
    }
}
