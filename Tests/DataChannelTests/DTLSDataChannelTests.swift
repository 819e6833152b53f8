import DTLS
import DataChannel
import Testing

extension SCTPTests {
    /// Data channels over SCTP over two real `DTLSSession`s (RFC 8261): the whole stack below
    /// ICE.
    @Suite struct DTLSStackTests {
        @Test func channelsAndMessagesOverDTLS() throws {
            let link = try DTLSDataChannelLink()
            #expect(link.connect())
            #expect(link.clientDTLS.state == .connected && link.serverDTLS.state == .connected)
            #expect(link.dtlsFailures.isEmpty)
            let chat = try link.open(from: .client, label: "chat")
            let events = try link.open(from: .server, label: "events", ordered: false, reliability: .maxRetransmits(0))
            #expect(chat.id % 2 == 0 && events.id % 2 == 1)

            let small = [UInt8](repeating: 0xAB, count: 1)
            let seed = (0..<15 * 1024).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let large = (0..<64 * 1024).map { UInt8(truncatingIfNeeded: $0 &* 13) }
            try link.send(.binary(small), from: .client, on: chat.id)
            try link.send(.text("{\"type\":\"chat\",\"text\":\"hello\"}"), from: .client, on: chat.id)
            try link.send(.binary(seed), from: .client, on: chat.id)
            try link.send(.binary(large), from: .client, on: chat.id)
            try link.send(.text("reaction"), from: .server, on: events.id)
            try link.send(.binary(seed), from: .server, on: events.id)
            #expect(link.run { link.messages(.server, on: chat.id).count == 4 && link.messages(.client, on: events.id).count == 2 })
            #expect(link.messages(.server, on: chat.id) == [.binary(small), .text("{\"type\":\"chat\",\"text\":\"hello\"}"),
                                                            .binary(seed), .binary(large)])
            #expect(Set(link.messages(.client, on: events.id)) == [.text("reaction"), .binary(seed)])
            // One SCTP packet per DTLS record, and every datagram within the 1200-byte MTU.
            #expect((link.clientDatagrams + link.serverDatagrams).allSatisfy { $0.count <= 1200 })
            #expect(link.dtlsFailures.isEmpty)
        }

        @Test func closingOverDTLS() throws {
            let link = try DTLSDataChannelLink()
            #expect(link.connect())
            let channel = try link.open(from: .server, label: "control")
            #expect(link.server.channel(channel.id)?.state == .open)
            // The reset may wait for outstanding data to be acknowledged (RFC 6525 §5.1.2).
            link.deliver(try link.server.closeChannel(channel.id, now: link.now), from: .server)
            #expect(link.server.channel(channel.id)?.state == .closing)
            #expect(link.run { link.clientEvents.contains(.closed(channelID: channel.id)) })
            #expect(link.run { link.serverEvents.contains(.closed(channelID: channel.id)) })
        }
    }
}
