import Foundation
import Media
import Net
@testable import RevueSDK
import TestSupport
import Transport

extension RevueSDKTests {
    /// Polls `condition` every 50 ms until it holds (true) or `timeout` seconds pass: the timeout
    /// bounds a hang, it measures nothing.
    @MainActor static func waitUntil(_ timeout: Double = 20, _ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return condition()
    }

    /// A room on a `RoomServerHarness` of its own, and SDK rooms in it that send no microphone,
    /// each with a listener added before the join (the seed's advice).
    @MainActor struct HarnessRoom {
        let server: RoomServerHarness
        let roomId: String
        var signalingURL: String { "ws://127.0.0.1:\(server.port)/v2/rtc" }

        init(videoCodecs: [TrackCodec] = [.vp8, .h264]) throws {
            server = try RoomServerHarness(videoCodecs: videoCodecs)
            roomId = try server.makeRoom()
        }

        func room(_ name: String, cam: Bool = false, camera: CustomStreamTrack? = nil, mode: Mode = .SEND_AND_RECV,
                  roomId: String? = nil) throws -> (Room, EventLog)
        {
            let room = try VideoSDK.createRoom(roomId: roomId ?? self.roomId, token: try server.token(), participantName: name, micEnabled: false,
                                               camEnabled: cam, mode: mode, customCameraTrack: camera, signalingURL: signalingURL)
            let log = EventLog()
            room.addEventListener(log)
            return (room, log)
        }
    }

    /// Runs blocking harness work (a stop waiting minutes for a worker, a server starting) on a
    /// thread of its own: neither the main actor, where the SDK delivers its events, nor the
    /// cooperative pool (two threads here), where the SDK's tasks run, waits on it.
    static func offMain<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    /// A 320x180 camera track of ffmpeg's testsrc2 (motion and detail everywhere) at `rate`,
    /// from a y4m file on a file device of its own (a device opens one track at a time, as a
    /// real camera does). The device goes when `directory` does not matter any more: remove it
    /// with `VideoSDK.removeDevice(deviceId:)`.
    @MainActor static func testsrc2Camera(in directory: TemporaryDirectory, rate: Int, seconds: Int) async throws -> (CustomStreamTrack, deviceId: String) {
        let clip = directory.file("testsrc2.y4m")
        let made = try Tool.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=\(rate):d=\(seconds)", "-pix_fmt", "yuv420p", clip])
        guard made.status == 0 else { throw ToolError("ffmpeg made no clip: \(made.standardError)") }
        let device = try VideoSDK.addFileCamera(path: clip, label: "testsrc2")
        let camera = try await VideoSDK.createCameraVideoTrack(encoderConfig: .h180p_w320p, multiStream: false, cameraId: device.deviceId)
        return (camera, device.deviceId)
    }

    /// A room server whose media goes through a `LossyUDPProxy` in the test (the
    /// server announces the proxy's port), for loss the test turns on and off.
    struct LossyRoomServer {
        let proxy: LossyUDPProxy
        let server: RoomServerHarness
        let roomId: String
        var signalingURL: String { "ws://127.0.0.1:\(server.port)/v2/rtc" }

        init(seed: UInt64) throws {
            proxy = try LossyUDPProxy(dropPercent: 0, reorderPercent: 0, seed: seed)
            server = try RoomServerHarness(announcePort: proxy.port)
            proxy.forward(toPort: server.rtcPort)
            proxy.start()
            roomId = try server.makeRoom()
        }

        /// An SDK room in it, with a listener added before the join, joined.
        @MainActor func join(_ name: String, camera: CustomStreamTrack? = nil) async throws -> (Room, EventLog) {
            let room = try VideoSDK.createRoom(roomId: roomId, token: try server.token(), participantName: name, micEnabled: false,
                                               camEnabled: camera != nil, customCameraTrack: camera, signalingURL: signalingURL)
            let log = EventLog()
            room.addEventListener(log)
            try await room.join()
            return (room, log)
        }
    }
}
