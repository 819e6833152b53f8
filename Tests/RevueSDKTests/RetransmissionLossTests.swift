import Foundation
@testable import RevueSDK
import TestSupport
import Testing

/// Retransmissions on a lossy path to the viewer (RFC 4585 NACK, RFC 4588 RTX): a UDP proxy in
/// front of the room server's media drops 8 % of the RTP it carries to the clients. The
/// viewer's room NACKs each gap, the SFU sends the packet again on the track's RTX stream, and
/// the viewer takes it from there: few packets end up lost, far fewer than were dropped.
extension RevueSDKTests {
    @MainActor @Suite(.live, .timeLimit(.minutes(10))) struct RetransmissionLossTests {
        @Test func packetsDroppedOnTheWayToTheViewerComeAgainOnRTX() async throws {
            let lossy = try LossyRoomServer(seed: 11)
            let proxy = lossy.proxy
            defer { proxy.stop() }
            let camera = try await VideoSDK.createCameraVideoTrack(encoderConfig: .h360p_w640p, multiStream: false)
            let (sender, _) = try await lossy.join("Sender", camera: camera)
            let (viewer, log) = try await lossy.join("Viewer")
            #expect(await log.wait(for: "streamEnabled Sender VIDEO"), "\(log.events)")
            let video = try #require(viewer.participants.values.first { $0.displayName == "Sender" }?.stream(of: .VIDEO)?.remoteVideoTrack)
            let until = RevueSDKTests.waitUntil
            #expect(await until(20) { video.statistics.framesDecoded > 10 }, "\(video.statistics)")
            let before = video.statistics
            let droppedBefore = proxy.droppedDown
            proxy.downlinkDropPercent = 8
            try? await Task.sleep(for: .seconds(10))
            proxy.downlinkDropPercent = 0
            try? await Task.sleep(for: .seconds(1))
            let after = video.statistics
            let dropped = proxy.droppedDown - droppedBefore
            let lost = after.packetsLost - before.packetsLost
            let retransmitted = after.packetsRetransmitted - before.packetsRetransmitted
            let decoded = after.framesDecoded - before.framesDecoded
            print("measured: 8 % downlink loss for 10 s: \(dropped) packets dropped, \(retransmitted) came again on RTX, \(lost) lost; "
                + "\(decoded) frames decoded, \(after.keyframeRequests - before.keyframeRequests) keyframe requests")
            #expect(dropped > 12, "the proxy dropped \(dropped)")
            #expect(retransmitted > dropped / 2, "\(retransmitted) retransmitted of \(dropped) dropped")
            #expect(lost < dropped / 4, "\(lost) lost of \(dropped) dropped")
            #expect(decoded > 100 && after.decodeErrors == 0, "\(after)")
            try await viewer.leave()
            try await sender.leave()
        }
    }
}
