import Net
import STUN
import TestKit
import Testing

@Suite struct STUNMessageTests {
    static let transactionID = STUNTransactionID(bytes: bytes("000102030405060708090a0b"))

    /// RFC 8489 §5's interleaving: Binding is 0x0001/0x0011/0x0101/0x0111; TURN Allocate (0x003) 0x0003/0x0113.
    @Test(arguments: [
        (0x0001, STUNMessageType.bindingRequest),
        (0x0011, .bindingIndication),
        (0x0101, .bindingSuccess),
        (0x0111, .bindingError),
        (0x0003, STUNMessageType(method: STUNMethod(rawValue: 0x003) ?? .binding, messageClass: .request)),
        (0x0113, STUNMessageType(method: STUNMethod(rawValue: 0x003) ?? .binding, messageClass: .errorResponse)),
        (0x3EEF, STUNMessageType(method: STUNMethod(rawValue: 0xFFF) ?? .binding, messageClass: .request)),
        (0x3FFF, STUNMessageType(method: STUNMethod(rawValue: 0xFFF) ?? .binding, messageClass: .errorResponse)),
    ] as [(UInt16, STUNMessageType)])
    func messageTypesInterleaveMethodAndClass(raw: UInt16, type: STUNMessageType) {
        #expect(STUNMessageType(rawValue: raw) == type)
        #expect(type.rawValue == raw)
    }

    /// RFC 7983 §7: first byte 0–3 and the cookie. DTLS (20–63), RTP (128–191) and short datagrams are not STUN.
    @Test(arguments: [
        ("0001 0000 2112a442 000102030405060708090a0b", true),
        ("0301 0000 2112a442 000102030405060708090a0b", true),
        ("0401 0000 2112a442 000102030405060708090a0b", false),
        ("0001 0000 2112a443 000102030405060708090a0b", false),
        ("16fe fd00 00000000 000000000000000000000000", false),
        ("8060 0001 2112a442 000102030405060708090a0b", false),
        ("0001 0000 2112a442 000102030405060708090a", false),
    ])
    func looksLikeSTUNFollowsRFC7983(hex: String, expected: Bool) {
        #expect(STUNMessage.looksLikeSTUN(bytes(hex)) == expected)
    }

    /// Bad headers throw without a header; bad attributes throw with one, so a server can answer 400.
    @Test(arguments: [
        ("0001 0000 2112a442 000102030405060708090a", "truncated STUN message: header needs 20 bytes, 19 left", false),
        ("4001 0000 2112a442 000102030405060708090a0b", "not a STUN message: the first two bits are not zero", false),
        ("0001 0000 2112a443 000102030405060708090a0b", "not a STUN message: no magic cookie", false),
        ("0001 0002 2112a442 000102030405060708090a0b 0000", "not a STUN message: length 2 is not a multiple of 4", false),
        ("0001 0008 2112a442 000102030405060708090a0b 00240004", "truncated STUN message: attributes needs 8 bytes, 4 left",
         false),
        ("0001 0000 2112a442 000102030405060708090a0b 00000000", "not a STUN message: 4 bytes after the message", false),
        ("0001 0008 2112a442 000102030405060708090a0b 00240008 00000001",
         "bad STUN attribute PRIORITY (0x0024): value of 8 bytes runs past the message", true),
        ("0001 0008 2112a442 000102030405060708090a0b 00250004 00000001",
         "bad STUN attribute USE-CANDIDATE (0x0025): length 4, expected 0", true),
        ("0001 0010 2112a442 000102030405060708090a0b 80280004 00000000 00250000 00000000",
         "bad STUN attribute USE-CANDIDATE (0x0025): follows FINGERPRINT, which must be last", true),
        ("0101 000c 2112a442 000102030405060708090a0b 00200008 00030001 01020304",
         "bad STUN attribute XOR-MAPPED-ADDRESS (0x0020): unknown address family 3", true),
        ("0101 000c 2112a442 000102030405060708090a0b 00200008 00020001 01020304",
         "bad STUN attribute XOR-MAPPED-ADDRESS (0x0020): family 2 with 4 address bytes", true),
        ("0111 0008 2112a442 000102030405060708090a0b 00090004 00000763",
         "bad STUN attribute ERROR-CODE (0x0009): class 7 number 99", true),
        ("0001 0008 2112a442 000102030405060708090a0b 00060002 ff fe 0000",
         "bad STUN attribute USERNAME (0x0006): not UTF-8", true),
        ("0001 0014 2112a442 000102030405060708090a0b 00080010 00000000 00000000 00000000 00000000",
         "bad STUN attribute MESSAGE-INTEGRITY (0x0008): length 16, expected 20", true),
    ])
    func malformedMessagesAreRefused(hex: String, description: String, hasHeader: Bool) {
        #expect {
            try STUNMessage(parsing: bytes(hex))
        } throws: { error in
            guard let error = error as? STUNError else { return false }
            return error.description == description && (error.transactionID != nil) == hasHeader
                && (error.transactionID == nil || error.transactionID == Self.transactionID)
        }
    }

    @Test func unknownAttributesAreKeptAndComprehensionRequiredOnesReported() throws {
        // REALM (0x0014) is comprehension-required and not implemented; NOMINATION (0xC001) is optional.
        let message = try STUNMessage(parsing: bytes("""
            0001 0014 2112a442 000102030405060708090a0b
            00140003 61626300 c0010004 00000001 00140000
            """))
        #expect(message.attributes == [.other(type: 0x0014, value: Array("abc".utf8)),
                                       .other(type: 0xC001, value: [0, 0, 0, 1]),
                                       .other(type: 0x0014, value: [])])
        #expect(message.unknownComprehensionRequired == [0x0014])
        #expect(try message.marshal() == bytes("""
            0001 0014 2112a442 000102030405060708090a0b
            00140003 61626300 c0010004 00000001 00140000
            """))
    }

    /// RFC 8489 §14.5: attributes after MESSAGE-INTEGRITY are not covered by it, so they are dropped,
    /// except FINGERPRINT.
    @Test func attributesAfterIntegrityAreIgnored() throws {
        let id = try #require(Self.transactionID)
        let key = Array("password".utf8)
        var wire = try STUNMessage(type: .bindingRequest, transactionID: id, attributes: [.username("a:b")])
            .marshal(integrityKey: key, fingerprint: false)
        wire += bytes("00250000")  // USE-CANDIDATE smuggled in after MESSAGE-INTEGRITY
        wire[3] += 4
        let message = try STUNMessage(parsing: wire)
        #expect(!message.useCandidate)
        #expect(message.attributes.count == 2)
        #expect(message.verifyIntegrity(key: key))
        #expect(!message.verifyFingerprint())
    }

    @Test func builtMessagesVerifyAndChangesForgetTheWire() throws {
        let id = try #require(Self.transactionID)
        let key = Array("swordfish-swordfish-22".utf8)
        let request = STUNMessage(type: .bindingRequest, transactionID: id,
                                  attributes: [.username("srv1:cli1"), .priority(1_862_270_975), .iceControlling(42), .useCandidate])
        var parsed = try STUNMessage(parsing: try request.marshal(integrityKey: key, fingerprint: true))
        #expect(parsed.attributes.prefix(4) == request.attributes[...])
        #expect(parsed.verifyIntegrity(key: key))
        #expect(parsed.verifyFingerprint())
        #expect(!parsed.verifyIntegrity(key: Array("swordfish-swordfish-23".utf8)))
        // Changing a field re-serialises for the checks, and the stored codes no longer match.
        parsed.attributes[1] = .priority(1)
        #expect(!parsed.verifyIntegrity(key: key))
        #expect(!parsed.verifyFingerprint())
        // Nothing to check is not a pass.
        #expect(!request.verifyIntegrity(key: key))
        #expect(!request.verifyFingerprint())
    }

    @Test func integrityAttributesCannotBeGivenTwice() throws {
        let id = try #require(Self.transactionID)
        let message = STUNMessage(type: .bindingRequest, transactionID: id, attributes: [.fingerprint(0)])
        #expect(throws: STUNError.self) { try message.marshal(integrityKey: nil, fingerprint: true) }
    }

    @Test(arguments: [
        STUNAttribute.username(String(repeating: "u", count: 514)),
        .errorCode(STUNErrorCode(code: 700, reason: "")),
        .messageIntegrity([1, 2, 3]),
        .other(type: 0x7777, value: [UInt8](repeating: 0, count: 70_000)),
    ])
    func unrepresentableValuesThrow(attribute: STUNAttribute) throws {
        let id = try #require(Self.transactionID)
        #expect(throws: STUNError.self) { try STUNMessage(type: .bindingRequest, transactionID: id, attributes: [attribute]).marshal() }
    }
}
