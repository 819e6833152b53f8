import DataChannel
import Testing

extension SCTPTests {
    /// Partial reliability (RFC 3758) as data channels use it: the first transmission of one
    /// message is lost, four more follow, and the channel's settings decide whether the lost one
    /// is sent again.
    ///
    /// The loss is repaired by fast retransmission (three SACKs reporting the gap, RFC 9260
    /// §7.2.4), which depends on packets only. usrsctp's timer retransmission (T3) also
    /// checks, on the wall clock, that a chunk has been out for longer than the smoothed
    /// round trip, and it judges `maxPacketLifeTime` on the wall clock too: with the test's
    /// injected clock running far ahead of the wall clock, T3 would fire and find nothing old
    /// enough to send. So lifetimes here are 0 (expired at once) or a minute (never).
    @Suite struct ReliabilityTests {
        struct Case: Sendable, CustomStringConvertible {
            let ordered: Bool
            let reliability: DataChannelReliability
            /// Whether the lost message is delivered in the end.
            let repaired: Bool

            var description: String { "\(ordered ? "ordered" : "unordered") \(reliability)" }
        }

        static let cases: [Case] = [
            Case(ordered: true, reliability: .reliable, repaired: true),
            Case(ordered: false, reliability: .reliable, repaired: true),
            Case(ordered: true, reliability: .maxRetransmits(1), repaired: true),
            Case(ordered: false, reliability: .maxRetransmits(0), repaired: false),
            Case(ordered: true, reliability: .maxRetransmits(0), repaired: false),
            Case(ordered: false, reliability: .maxPacketLifeTime(milliseconds: 0), repaired: false),
            Case(ordered: true, reliability: .maxPacketLifeTime(milliseconds: 60_000), repaired: true),
        ]

        static let followers = (1...4).map { "kept-\($0)" }

        @Test(arguments: cases)
        func aLostMessageIsRetransmittedOnlyIfTheChannelSaysSo(_ test: Case) throws {
            let link = try SCTPTestLink()
            link.connect()
            let channel = try link.open(from: .client, label: "game", ordered: test.ordered, reliability: test.reliability)
            // Let DATA_CHANNEL_ACK arrive, so unordered channels really send unordered.
            link.settle()
            let marker = Array("lost-once".utf8)
            var lost = 0
            link.drop = { role, packet in
                guard role == .client, Self.packet(packet, contains: marker), lost == 0 else { return false }
                lost += 1
                return true
            }
            for text in ["lost-once"] + Self.followers {
                try link.send(.text(text), from: .client, on: channel.id)
            }
            let expected = test.repaired ? ["lost-once"] + Self.followers : Self.followers
            #expect(link.run { link.messages(.server, on: channel.id).count == expected.count })
            link.settle(quiet: 2)
            let received = link.messages(.server, on: channel.id).compactMap { if case .text(let text) = $0 { text } else { nil } }
            if test.ordered {
                #expect(received == expected)
            } else {
                #expect(received.sorted() == expected.sorted())
                // Unordered: what followed the loss did not wait for its repair.
                #expect(received.first != "lost-once")
            }
            #expect(lost == 1)
            let transmissions = link.clientPackets.filter { Self.packet($0, contains: marker) }.count
            #expect(transmissions == (test.repaired ? 2 : 1))
            if !test.repaired {
                // An abandoned message is skipped with FORWARD TSN (chunk type 192, RFC 3758 §3.2).
                #expect(link.clientPackets.contains { Self.chunkTypes($0).contains(192) })
            }
        }

        /// Whether `marker` occurs in `packet`.
        static func packet(_ packet: [UInt8], contains marker: [UInt8]) -> Bool {
            guard packet.count >= marker.count else { return false }
            return (0...(packet.count - marker.count)).contains { packet[$0..<($0 + marker.count)].elementsEqual(marker) }
        }

        /// The chunk types in a packet (RFC 9260 §3.2: type, flags, 16-bit length, padded to 4).
        static func chunkTypes(_ packet: [UInt8]) -> [UInt8] {
            var types: [UInt8] = []
            var offset = 12
            while offset + 4 <= packet.count {
                types.append(packet[offset])
                let length = Int(packet[offset + 2]) << 8 | Int(packet[offset + 3])
                guard length >= 4 else { break }
                offset += (length + 3) & ~3
            }
            return types
        }
    }
}
