@testable import DataChannel
import Testing

/// The DCEP rules without usrsctp: ids, OPEN/ACK, and closing by stream resets.
@Suite struct DataChannelTableTests {
    static let chat = DCEPOpen(label: "chat")

    static func upTable(_ role: SCTPAssociation.Role) -> DataChannelTable {
        var table = DataChannelTable(role: role, streams: 16)
        _ = table.associationUp(streams: 16)
        return table
    }

    @Test func openingSendsOpenAndReportsTheChannel() throws {
        var table = Self.upTable(.client)
        let (channel, commands) = try table.open(Self.chat, id: nil, negotiated: false)
        #expect(channel.id == 0)
        #expect(channel.state == .open)
        #expect(commands == [.sendDCEP(stream: 0, .open(Self.chat)), .event(.opened(channel))])
        // Ordered until the ACK, then the channel's own setting (RFC 8832 §6).
        var unordered = Self.upTable(.server)
        let opened = try unordered.open(DCEPOpen(ordered: false, label: "u"), id: nil, negotiated: false)
        #expect(opened.channel.id == 1)
        #expect(try unordered.sendOptions(1).ordered == true)
        #expect(unordered.receiveDCEP([0x02], stream: 1).isEmpty)
        #expect(try unordered.sendOptions(1).ordered == false)
        // A second ACK is not expected.
        #expect(unordered.receiveDCEP([0x02], stream: 1) == [.dropped(.invalidDCEP)])
    }

    @Test func idsRunOutPerParity() throws {
        var table = DataChannelTable(role: .server, streams: 6)
        _ = table.associationUp(streams: 6)
        #expect(try table.open(Self.chat, id: nil, negotiated: false).0.id == 1)
        #expect(try table.open(Self.chat, id: nil, negotiated: false).0.id == 3)
        #expect(try table.open(Self.chat, id: nil, negotiated: false).0.id == 5)
        #expect(throws: DataChannelError.noFreeStream) { try table.open(Self.chat, id: nil, negotiated: false) }
        // The peer may use its own parity still.
        #expect(table.receiveDCEP(try DCEPMessage.open(Self.chat).serialized(), stream: 4).count == 2)
    }

    @Test func aPeerOpenIsAcknowledged() throws {
        var table = Self.upTable(.server)
        let commands = table.receiveDCEP(try DCEPMessage.open(Self.chat).serialized(), stream: 2)
        let channel = try #require(table.channel(2))
        #expect(commands == [.sendDCEP(stream: 2, .ack), .event(.opened(channel))])
        #expect(channel.label == "chat" && channel.state == .open)
        #expect(table.accepts(stream: 2))
        #expect(!table.accepts(stream: 4))
    }

    @Test func invalidOpensAreAnsweredWithAResetAndNoAck() throws {
        var table = Self.upTable(.server)
        let open = try DCEPMessage.open(Self.chat).serialized()
        // RFC 8832 §6: this side's parity (the DTLS server opens odd ids).
        #expect(table.receiveDCEP(open, stream: 3) == [.dropped(.invalidDCEP), .resetOutgoing(3)])
        // Malformed on an unused stream: a failed open.
        #expect(table.receiveDCEP([0x03, 0x00], stream: 4) == [.dropped(.invalidDCEP), .resetOutgoing(4)])
        #expect(table.channels.isEmpty)
        // On a used stream: the channel there is closed.
        _ = table.receiveDCEP(open, stream: 6)
        #expect(table.receiveDCEP(open, stream: 6) == [.dropped(.invalidDCEP), .resetOutgoing(6)])
        #expect(table.channel(6)?.state == .closing)
    }

    @Test func closingWaitsForBothDirections() throws {
        var table = Self.upTable(.client)
        let (channel, _) = try table.open(Self.chat, id: nil, negotiated: false)
        #expect(try table.close(channel.id) == [.resetOutgoing(0)])
        #expect(table.channel(0)?.state == .closing)
        #expect(try table.close(channel.id).isEmpty)
        #expect(table.streamsReset(incoming: [], outgoing: [0]).isEmpty)
        #expect(table.streamsReset(incoming: [0], outgoing: []) == [.event(.closed(channelID: 0))])
        #expect(table.channel(0) == nil)
        #expect(throws: DataChannelError.noSuchChannel) { try table.close(0) }
    }

    @Test func aPeerResetIsAnsweredWithOurs() throws {
        var table = Self.upTable(.client)
        _ = table.receiveDCEP(try DCEPMessage.open(Self.chat).serialized(), stream: 1)
        #expect(table.streamsReset(incoming: [1], outgoing: []) == [.resetOutgoing(1)])
        #expect(table.streamsReset(incoming: [], outgoing: [1]) == [.event(.closed(channelID: 1))])
        // Resets of streams without channels change nothing.
        #expect(table.streamsReset(incoming: [9], outgoing: [9]).isEmpty)
    }

    @Test func channelsOpenedEarlyWaitForTheAssociation() throws {
        var table = DataChannelTable(role: .client, streams: 1024)
        let (early, commands) = try table.open(Self.chat, id: 1000, negotiated: false)
        let (second, _) = try table.open(Self.chat, id: 2, negotiated: false)
        #expect(commands.isEmpty && early.state == .connecting)
        #expect(try table.close(second.id) == [.event(.closed(channelID: 2))])
        // The peer offers fewer streams: a channel beyond them cannot open.
        let up = table.associationUp(streams: 512)
        #expect(up == [.event(.closed(channelID: 1000))])
        #expect(table.streamLimit == 512)
    }

    @Test func associationDownClosesEverything() throws {
        var table = Self.upTable(.client)
        _ = try table.open(Self.chat, id: nil, negotiated: false)
        _ = try table.open(Self.chat, id: 8, negotiated: true)
        #expect(table.associationDown() == [.event(.closed(channelID: 0)), .event(.closed(channelID: 8))])
        #expect(table.channels.isEmpty)
    }
}
