import Foundation
import Net
@testable import RevueSDK
import TestSupport
import Testing
import Transport

/// Adaptive subscription against a real lossy path: a UDP proxy in front of the room server's
/// media drops 8 % of the RTP it carries to the clients (over adaptive subscription's 5 %, under
/// the 10 % at which the SFU lowers a subscriber's layer on its own). The viewer's room sees the loss in its
/// own counters, asks the publisher's three layers for a lower one and decodes smaller
/// pictures; once the path is clean it climbs back, one layer at a time, 10 s a layer.
extension RevueSDKTests {
    @MainActor @Suite struct AdaptiveSubscriptionLossTests {
        @Test func lossOnTheWayToTheViewerLowersItsLayerAndACleanPathRaisesIt() async throws {
            let serverPort = try UInt16(UDPSocket(bind: SocketAddress(ip: .loopbackV4, port: 0)).localAddress.port)
            let proxy = try LossyUDPProxy(upstream: SocketAddress(ip: .loopbackV4, port: serverPort), dropPercent: 0, reorderPercent: 0, seed: 7)
            let server = try RoomServerHarness(rtcPort: serverPort, announcePort: proxy.port)
            proxy.start()
            defer { proxy.stop() }
            let roomId = try server.makeRoom()
            let url = "ws://127.0.0.1:\(server.port)/v2/rtc"
            let camera = try await VideoSDK.createCameraVideoTrack(encoderConfig: .h360p_w640p, multiStream: true, maxLayer: .MAX_LAYER_3,
                                                                  bitrateMode: .BANDWIDTH_OPTIMIZED)
            let sender = try VideoSDK.createRoom(roomId: roomId, token: try server.token(), participantName: "Layers", micEnabled: false, camEnabled: true,
                                                 customCameraTrack: camera, signalingURL: url)
            let senderLog = EventLog()
            sender.addEventListener(senderLog)
            try await sender.join()
            let viewer = try VideoSDK.createRoom(roomId: roomId, token: try server.token(), participantName: "Viewer", micEnabled: false,
                                                 camEnabled: false, signalingURL: url)
            let viewerLog = EventLog()
            viewer.addEventListener(viewerLog)
            try await viewer.join()
            #expect(await viewerLog.wait(for: "streamEnabled Layers VIDEO"), "\(viewerLog.events)")
            let publisher = try #require(viewer.participants.values.first { $0.displayName == "Layers" })
            let video = try #require(publisher.stream(of: .VIDEO)?.remoteVideoTrack)
            func until(_ timeout: Double, _ condition: () -> Bool) async -> Bool {
                let deadline = Date().addingTimeInterval(timeout)
                while Date() < deadline {
                    if condition() { return true }
                    try? await Task.sleep(for: .milliseconds(100))
                }
                return condition()
            }
            #expect(await until(20) { video.statistics.frameWidth == 640 && video.statistics.framesDecoded > 10 }, "\(video.statistics)")
            try await viewer.enableAdaptiveSubscription()
            // A clean path asks for nothing.
            try? await Task.sleep(for: .seconds(AdaptiveSubscription.interval * 2.5))
            #expect(viewer.adaptive.lowered.isEmpty, "\(video.statistics)")

            proxy.downlinkDropPercent = 8
            let lossyAt = Date()
            #expect(await until(20) { viewer.adaptive.quality(of: publisher.id) != .high && video.statistics.frameWidth < 640 },
                    "asked \(viewer.adaptive.quality(of: publisher.id)), \(video.statistics)")
            let lowered = Date().timeIntervalSince(lossyAt)
            let smallest = video.statistics.frameWidth
            // Another stretch or two of loss (the lowest layer may carry too few packets a
            // stretch to decide on).
            try? await Task.sleep(for: .seconds(AdaptiveSubscription.interval * 2))
            print("measured: adaptive subscription under 8 % downlink loss: a lower layer asked and decoded (\(smallest) wide) after "
                + String(format: "%.1f", lowered) + " s; \(proxy.droppedDown) packets dropped; asked \(viewer.adaptive.quality(of: publisher.id)) "
                + "(\(video.statistics.packetsLost) of \(video.statistics.packetsLost + video.statistics.packetsReceived) lost)")

            proxy.downlinkDropPercent = 0
            let cleanAt = Date()
            #expect(await until(40) { viewer.adaptive.quality(of: publisher.id) == .high && video.statistics.frameWidth == 640 },
                    "asked \(viewer.adaptive.quality(of: publisher.id)), \(video.statistics)")
            print("measured: adaptive subscription on a clean path again: back to the top layer (640 wide) after "
                + String(format: "%.1f", Date().timeIntervalSince(cleanAt)) + " s")
            #expect(viewerLog.errors.isEmpty && senderLog.errors.isEmpty, "\(viewerLog.errors) \(senderLog.errors)")
            try await viewer.leave()
            try await sender.leave()
        }
    }
}
