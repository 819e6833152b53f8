import Encode
import Foundation
import Media
import Outputs
import Synchronization
import Testing

@Suite struct QueuedSinkTests {
    /// Notes what reaches it, in order.
    final class Recorder: PacketSink, @unchecked Sendable {
        let name = "recorder"
        let seen = Mutex<[String]>([])
        func write(_ packet: EncodedPacket) throws { seen.withLock { $0.append("packet \(packet.pts)") } }
        func add(caption: Caption) { seen.withLock { $0.append("caption \(caption.text)") } }
        func finish() throws { seen.withLock { $0.append("finish") } }
    }

    /// Captions reach the output on its thread in their place among the packets.
    @Test func captionsKeepTheirPlaceAmongPackets() throws {
        let recorder = Recorder()
        let queue = QueuedSink(recorder, policy: .block)
        for pts in 0..<3 { try queue.write(EncodedPacket(stream: .audio, data: [1], pts: Int64(pts), dts: Int64(pts), duration: 1, isKeyframe: true)) }
        queue.add(caption: Caption(participantID: "a", name: "Alice", text: "hello", start: 0, end: 1))
        try queue.write(EncodedPacket(stream: .audio, data: [1], pts: 3, dts: 3, duration: 1, isKeyframe: true))
        try queue.finish()
        #expect(recorder.seen.withLock { $0 } == ["packet 0", "packet 1", "packet 2", "caption hello", "packet 3", "finish"])
        // After the end, a caption is not taken.
        queue.add(caption: Caption(participantID: "a", name: "Alice", text: "late", start: 0, end: 1))
        #expect(recorder.seen.withLock { $0 }.last == "finish")
    }
}
