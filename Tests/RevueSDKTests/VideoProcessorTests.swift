import Foundation
import Media
@testable import RevueSDK
import Synchronization
import TestSupport
import Testing

/// `setVideoProcessor` and `removeVideoProcessor` (seed 004) against a real room server: the
/// pictures another participant decodes are the processor's while it is set, and the camera's
/// again once it is removed, without turning the camera off.
extension RevueSDKTests {
    @MainActor @Suite(.live, .timeLimit(.minutes(10))) struct VideoProcessorTests {
        /// Paints every picture one colour, as a stand-in for a background or a filter.
        final class Painter: VideoSDKVideoProcessor {
            static let magenta = YUVColor(y: 105, u: 212, v: 234)
            let calls = Atomic<Int>(0)

            func onFrameReceived(_ frame: VideoFrame) -> VideoFrame? {
                calls.add(1, ordering: .relaxed)
                return VideoFrame(width: frame.width, height: frame.height, color: Self.magenta, mediaTime: frame.mediaTime)
            }
        }

        final class LastPicture: Sendable {
            let colour = Mutex<YUVColor?>(nil)
        }

        /// Bob joins the room and watches John's camera: Bob's room and John's video as he receives it.
        static func watchJohn(roomId: String, server: RoomServerHarness, url: String) async throws -> (Room, RemoteVideoTrack) {
            let bob = try VideoSDK.createRoom(roomId: roomId, token: try server.token(), participantName: "Bob", micEnabled: false,
                                              camEnabled: false, signalingURL: url)
            let bobLog = EventLog()
            bob.addEventListener(bobLog)
            try await bob.join()
            #expect(await bobLog.wait(for: "streamEnabled John VIDEO"), "\(bobLog.events)")
            let johnSeen = try #require(bob.participants.values.first { $0.displayName == "John" })
            return (bob, try #require(johnSeen.stream(of: .VIDEO)?.remoteVideoTrack))
        }

        static func wait(_ timeout: Double, _ condition: () -> Bool) async -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while !condition() {
                guard Date() < deadline else { return false }
                try? await Task.sleep(for: .milliseconds(50))
            }
            return true
        }

        @Test func theOthersSeeTheProcessorsPicturesUntilItIsRemoved() async throws {
            let server = try RoomServerHarness()
            let roomId = try server.makeRoom()
            let url = "ws://127.0.0.1:\(server.port)/v2/rtc"
            let camera = try await VideoSDK.createCameraVideoTrack(encoderConfig: .h180p_w320p, multiStream: false, bitrateMode: .BANDWIDTH_OPTIMIZED)
            let john = try VideoSDK.createRoom(roomId: roomId, token: try server.token(), participantName: "John", micEnabled: false,
                                               camEnabled: true, customCameraTrack: camera, signalingURL: url)
            let johnLog = EventLog()
            john.addEventListener(johnLog)
            let painter = Painter()
            john.setVideoProcessor(processor: painter)
            try await john.join()
            #expect(await johnLog.wait(for: "streamEnabled local VIDEO"), "\(johnLog.events)")

            let (bob, video) = try await Self.watchJohn(roomId: roomId, server: server, url: url)
            let last = LastPicture()
            video.setFrameHandler { picture in last.colour.withLock { $0 = picture.pixel(x: picture.width / 2, y: picture.height / 2) } }

            let painted = await Self.wait(20) { last.colour.withLock { $0 }.map { $0.distance(to: Painter.magenta) < 20 } ?? false }
            #expect(painted, "Bob decodes \(String(describing: last.colour.withLock { $0 })), not the processor's \(Painter.magenta)")
            #expect(painter.calls.load(ordering: .relaxed) > 0)

            john.removeVideoProcessor()
            let calls = painter.calls.load(ordering: .relaxed)
            let camerasOwn = await Self.wait(20) { last.colour.withLock { $0 }.map { $0.distance(to: Painter.magenta) > 60 } ?? false }
            #expect(camerasOwn, "after removeVideoProcessor Bob still decodes \(String(describing: last.colour.withLock { $0 }))")
            #expect(painter.calls.load(ordering: .relaxed) <= calls + 1, "the processor is not called once removed")
            print("measured: video processor: Bob decoded \(video.statistics.framesDecoded) pictures; processed \(calls), "
                + "then the camera's \(String(describing: last.colour.withLock { $0 }))")
            try await bob.leave()
            try await john.leave()
        }
    }
}
