import DataChannel
import TestKit
import Testing

/// DCEP messages (RFC 8832 §5). The three OPEN vectors are witnessed: aiortc 1.16.0's
/// `RTCSctpTransport._data_channel_open` wrote them (it sends priority 0).
@Suite struct DCEPMessageTests {
    static let vectors: [(hex: String, open: DCEPOpen)] = [
        ("03000000 00000000 00040000 63686174",
         DCEPOpen(ordered: true, reliability: .reliable, priority: 0, label: "chat")),
        ("03810000 00000000 00040005 67616d65 7265767565",
         DCEPOpen(ordered: false, reliability: .maxRetransmits(0), priority: 0, label: "game", protocol: "revue")),
        ("03020000 000005dc 00010000 74",
         DCEPOpen(ordered: true, reliability: .maxPacketLifeTime(milliseconds: 1500), priority: 0, label: "t")),
    ]

    @Test(arguments: 0..<vectors.count)
    func parsesAndWritesAiortcOpens(_ index: Int) throws {
        let (hex, open) = Self.vectors[index]
        #expect(try DCEPMessage(parsing: bytes(hex)) == .open(open))
        #expect(try DCEPMessage.open(open).serialized() == bytes(hex))
    }

    @Test func everyChannelTypeRoundTrips() throws {
        // RFC 8832 §5.1: 0x00, 0x80, 0x01, 0x81, 0x02, 0x82.
        let settings: [(Bool, DataChannelReliability, UInt8)] = [
            (true, .reliable, 0x00), (false, .reliable, 0x80), (true, .maxRetransmits(5), 0x01),
            (false, .maxRetransmits(5), 0x81), (true, .maxPacketLifeTime(milliseconds: 250), 0x02),
            (false, .maxPacketLifeTime(milliseconds: 250), 0x82),
        ]
        for (ordered, reliability, type) in settings {
            let open = DCEPOpen(ordered: ordered, reliability: reliability, priority: DCEPOpen.Priority.high,
                                label: "ünïcödé 🎥", protocol: "x")
            let wire = try DCEPMessage.open(open).serialized()
            #expect(wire[1] == type)
            #expect(Array(wire[2..<4]) == [0x02, 0x00], "priority 512")
            #expect(Int(wire[8]) << 8 | Int(wire[9]) == "ünïcödé 🎥".utf8.count, "the label length counts UTF-8 bytes")
            #expect(try DCEPMessage(parsing: wire) == .open(open))
        }
    }

    @Test func ackIsOneByte() throws {
        #expect(try DCEPMessage.ack.serialized() == [0x02])
        #expect(try DCEPMessage(parsing: [0x02]) == .ack)
        #expect(throws: DCEPError.trailingBytes) { try DCEPMessage(parsing: [0x02, 0x00]) }
    }

    @Test func aReliableChannelIgnoresTheReliabilityParameter() throws {
        // RFC 8832 §5.1: "MUST be ignored on the receiving side" for reliable channels; it is
        // written as 0.
        let parsed = try DCEPMessage(parsing: bytes("03800100 0000002a 00000000"))
        #expect(parsed == .open(DCEPOpen(ordered: false, reliability: .reliable, priority: 256, label: "")))
        #expect(try parsed.serialized() == bytes("03800100 00000000 00000000"))
    }

    @Test(arguments: [
        ("", DCEPError.truncated),
        ("01", DCEPError.unknownMessageType),
        ("04 00", DCEPError.unknownMessageType),
        ("03 00 0100 00000000 0004", DCEPError.truncated),
        ("03 00 0100 00000000 0004 0000 6368 61", DCEPError.truncated),
        ("03 00 0100 00000000 0004 0000 6368 6174 00", DCEPError.trailingBytes),
        ("03 03 0100 00000000 0000 0000", DCEPError.unknownChannelType),
        ("03 83 0100 00000000 0000 0000", DCEPError.unknownChannelType),
        ("03 00 0100 00000000 0001 0000 c3", DCEPError.invalidText),
        ("03 00 0100 00000000 0000 0002 ffff", DCEPError.invalidText),
    ])
    func refusesMalformedMessages(_ hex: String, _ error: DCEPError) {
        #expect(throws: error) { try DCEPMessage(parsing: bytes(hex)) }
    }

    @Test func errorsSayWhatIsWrong() {
        do {
            _ = try DCEPMessage(parsing: bytes("03 00 0100 00000000 0004 0000 6368 61"))
            Issue.record("a truncated label parsed")
        } catch {
            #expect(error.description.hasPrefix("DCEP: "))
            #expect(error.description.contains("label (4)"))
        }
    }

    @Test func emptyAndNonEmptyPayloadsUseTheirPPIDs() {
        // RFC 8831 §6.6 and §8: 51/53, and 56/57 (one byte) for empty messages.
        #expect(PayloadProtocolIdentifier.string.rawValue == 51)
        #expect(PayloadProtocolIdentifier.binary.rawValue == 53)
        #expect(PayloadProtocolIdentifier.emptyString.rawValue == 56)
        #expect(PayloadProtocolIdentifier.emptyBinary.rawValue == 57)
        #expect(DataChannelPayload.text("hé").count == 3)
        #expect(DataChannelPayload.binary([]).count == 0)
    }
}
