import Foundation
import Net
import Capture
import Publisher
import TestSupport
import Testing
import Transport

/// The publisher's video bitrate follows the path's estimate live (docs/PUBLISHING.md): behind a
/// 250 kb/s bottleneck (a UDP proxy in the test, with a quarter second of queue) the server's REMB
/// estimate falls, and so does the publisher's own from the server's TWCC feedback; the encoder's
/// target follows the lower, so what goes out fits the link; once the bottleneck goes, both grow
/// back and the target returns to the camera's rate.
extension RoomClientLiveSuites {
    @Suite(.live, .timeLimit(.minutes(10))) struct RembRateControlTests {
        /// The lowest value seen of an estimate, across the polls of a wait.
        final class Lowest: @unchecked Sendable {
            private(set) var value = UInt64.max
            func see(_ estimate: UInt64?) { if let estimate { value = min(value, estimate) } }
        }

        @Test func theEncoderFollowsALowEstimateAndRecovers() throws {
            let proxy = try LossyUDPProxy(dropPercent: 0, reorderPercent: 0, seed: 1)
            let server = try RoomServerHarness(announcePort: proxy.port)
            proxy.forward(toPort: server.rtcPort)
            proxy.start()
            defer { proxy.stop() }
            let room = try server.makeRoom()
            let publisher = try RoomPublisher(configuration: .init(signalingURL: "ws://127.0.0.1:\(server.port)/v2/rtc", roomID: room,
                                                                   token: try server.token(), participantName: "Squeezed",
                                                                   camera: try TestPatternCamera(name: "Squeezed", rgb: 0x2040D0),
                                                                   microphone: ToneMicrophone(frequency: 440), videoBitrate: 600_000))
            defer { publisher.leave() }
            #expect(publisher.waitUntilPublishing(timeout: 15), "\(publisher.failure ?? "") \(publisher.currentStatistics)")
            #expect(RoomReceiverTests.waitUntil(10) { publisher.currentStatistics.sender.estimatedBitrate != nil })
            let open = publisher.currentStatistics
            #expect(open.videoBitrate == 600_000, "\(open)")

            proxy.bitrateLimit = 250_000
            // The publisher's own estimate is watched from here on: it may fall first and climb
            // back (8 % a second) while the server's falls.
            let lowestOwn = Lowest()
            let squeezed = RoomReceiverTests.waitUntil(20) {
                let now = publisher.currentStatistics
                lowestOwn.see(now.sender.transportEstimate)
                return now.videoBitrate <= 250_000 && (now.sender.estimatedBitrate ?? .max) <= 300_000
            }
            // The publisher's own estimate sees the queue too, from the arrival times alone.
            let ownEstimateFell = RoomReceiverTests.waitUntil(20) {
                lowestOwn.see(publisher.currentStatistics.sender.transportEstimate)
                return lowestOwn.value <= 350_000
            }
            let low = publisher.currentStatistics
            // What goes out over the next two seconds, media and headers.
            let before = low.sender.bytesSent
            Thread.sleep(forTimeInterval: 2)
            let sent = Double(publisher.currentStatistics.sender.bytesSent - before) * 8 / 2
            print("measured: behind a 250 kb/s bottleneck: REMB \(low.sender.estimatedBitrate ?? 0) b/s, TWCC \(low.sender.transportEstimate ?? 0) b/s (lowest \(lowestOwn.value)) "
                + "(\(low.sender.transportFeedbackReceived) feedbacks, \(low.sender.transportDelayDecreases) cuts for delay, "
                + "\(low.sender.transportLossDecreases) for loss), video target \(low.videoBitrate) b/s "
                + "(\(low.bitrateChanges) changes), sending \(Int(sent)) b/s; the proxy dropped \(proxy.policed) packets")
            #expect(ownEstimateFell, "TWCC went no lower than \(lowestOwn.value) after \(low.sender.transportFeedbackReceived) feedbacks")
            #expect(low.sender.transportDelayDecreases + low.sender.transportLossDecreases >= 1, "\(low.sender)")
            #expect(squeezed, "the target stayed at \(low.videoBitrate) with REMB \(String(describing: low.sender.estimatedBitrate))")
            #expect(sent < 330_000, "still sending \(sent) b/s into a 250 kb/s link")

            proxy.bitrateLimit = nil
            let recovered = RoomReceiverTests.waitUntil(30) { publisher.currentStatistics.videoBitrate >= 500_000 }
            let back = publisher.currentStatistics
            print("measured: bottleneck lifted: REMB \(back.sender.estimatedBitrate ?? 0) b/s, TWCC \(back.sender.transportEstimate ?? 0) b/s, "
                + "video target \(back.videoBitrate) b/s")
            #expect(recovered, "the target stayed at \(back.videoBitrate) with REMB \(String(describing: back.sender.estimatedBitrate))")
            #expect(publisher.failure == nil)
        }
    }
}
