import RTP
import TestKit
import Testing

/// RFC 7587 §4.2: one Opus packet per payload, unchanged, read back by `OpusDepacketizer`.
@Suite struct OpusPacketizerTests {
    @Test func aPacketIsItsOwnPayload() throws {
        var packetizer = OpusPacketizer()
        // Witnessed: a CELT 20 ms frame's first bytes (TOC 0xf8).
        let packet = bytes("f8b4f011")
        let payloads = packetizer.packetize(packet, maxPayloadSize: 1200)
        #expect(payloads == [packet])
        var depacketizer = OpusDepacketizer()
        let result = try depacketizer.depacketize(payloads[0])
        #expect(result.data == packet && result.isFrameStart)
    }

    @Test func emptyOrOversizedPacketsAreNotSent() {
        var packetizer = OpusPacketizer()
        #expect(packetizer.packetize([], maxPayloadSize: 1200).isEmpty)
        #expect(packetizer.packetize([UInt8](repeating: 0xF8, count: 1201), maxPayloadSize: 1200).isEmpty)
    }

    /// Random code-0 packets (one frame, any configuration): through and back unchanged.
    @Test func randomPacketsRoundTrip() throws {
        var random = SeededGenerator(seed: 7587)
        for _ in 0..<1_000 {
            let toc = UInt8(truncatingIfNeeded: random.next()) & 0xFC
            let packet = [toc] + random.bytes(Int(random.next() % 400))
            var packetizer = OpusPacketizer()
            let payloads = packetizer.packetize(packet, maxPayloadSize: 1200)
            #expect(payloads.count == 1)
            var depacketizer = OpusDepacketizer()
            #expect(try depacketizer.depacketize(payloads[0]).data == packet)
        }
    }
}
