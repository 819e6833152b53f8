import Net
import STUN
import TestKit
import Testing

/// Each typed attribute against its bytes (invented values), both directions.
@Suite struct STUNAttributeTests {
    static let transactionID = STUNTransactionID(bytes: bytes("b7e7a701bc34d686fa87dfae"))

    @Test(arguments: [
        (STUNAttribute.username("evtj:h6vY"), "00060009 6576746a 3a683676 59000000"),
        (.priority(0x6E00_01FF), "00240004 6e0001ff"),
        (.useCandidate, "00250000"),
        (.iceControlling(0x0102_0304_0506_0708), "802a0008 01020304 05060708"),
        (.iceControlled(0xFFFF_FFFF_FFFF_FFFF), "80290008 ffffffff ffffffff"),
        (.software("Revue"), "80220005 52657675 65000000"),
        (.errorCode(.unauthenticated), "00090013 00000401 556e6175 7468656e 74696361 746564 00"),
        (.errorCode(.roleConflict), "00090011 00000457 526f6c65 20436f6e 666c6963 74000000"),
        (.unknownAttributes([0x0014, 0x0015, 0x7777]), "000a0006 00140015 77770000"),
        (.mappedAddress(SocketAddress(ip: IPAddress(ipv4: 0xC000_0201), port: 32853)), "00010008 00018055 c0000201"),
        (.xorMappedAddress(SocketAddress(ip: IPAddress(ipv4: 0xC000_0201), port: 32853)), "00200008 0001a147 e112a643"),
        (.fingerprint(0xE57A_3BCF), "80280004 e57a3bcf"),
        (.messageIntegritySHA256([UInt8](repeating: 7, count: 16)), "001c0010 07070707 07070707 07070707 07070707"),
        (.other(type: 0xC001, value: [1, 2, 3, 4, 5]), "c0010005 01020304 05000000"),
    ])
    func attributesRoundTrip(attribute: STUNAttribute, hex: String) throws {
        let id = try #require(Self.transactionID)
        let header = bytes("0001 0000 2112a442 b7e7a701bc34d686fa87dfae")
        var wire = header + bytes(hex)
        wire[3] = UInt8(wire.count - 20)
        let message = try STUNMessage(parsing: wire)
        #expect(message.attributes == [attribute])
        #expect(try STUNMessage(type: .bindingRequest, transactionID: id, attributes: [attribute]).marshal() == wire)
    }

    @Test func comprehensionRangeAndNames() {
        #expect(STUNAttributeType.username.isComprehensionRequired)
        #expect(!STUNAttributeType.fingerprint.isComprehensionRequired)
        #expect(STUNAttributeType(rawValue: 0xC001).description == "0xc001")
        #expect(STUNAttributeType.iceControlling.description == "ICE-CONTROLLING (0x802a)")
    }

    @Test func transactionIDsAreTwelveBytes() throws {
        let id = try #require(Self.transactionID)
        #expect(id.bytes == bytes("b7e7a701bc34d686fa87dfae"))
        #expect(id.description == "b7e7a701bc34d686fa87dfae")
        #expect(STUNTransactionID(bytes: [1, 2, 3]) == nil)
        #expect(STUNTransactionID.random() != STUNTransactionID.random())
    }
}
