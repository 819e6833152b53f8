import Foundation
import Media
import Platform
@testable import RevueSDK
import Synchronization
import TestSupport
import Testing

/// The seeds' 2 s rule for `createCameraVideoTrack` and `createMicrophoneAudioTrack`: errors in
/// the first 2 s are thrown; a device still opening then gives a track at once, which sends
/// black (silence) until the device opens, and which ends with the error if it fails later.
/// The slow devices are media files behind a loopback HTTP server that holds each answer until
/// the test opens its gate, so "still opening" is a fact, not a timing.
extension RevueSDKTests {
    @MainActor @Suite(.live, .timeLimit(.minutes(5))) struct DeviceOpeningTests {
        /// Answers GET /NAME once the file NAME.gate exists: with the file NAME if the gate says
        /// "open", 404 if it says "fail".
        static let server = """
            import http.server, os, sys, time
            root = sys.argv[1]
            class Gate(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    name = os.path.basename(self.path)
                    while not os.path.exists(os.path.join(root, name + ".gate")):
                        time.sleep(0.02)
                    if open(os.path.join(root, name + ".gate")).read().strip() != "open":
                        self.send_error(404)
                        return
                    data = open(os.path.join(root, name), "rb").read()
                    self.send_response(200)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                def log_message(self, *args):
                    pass
            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Gate)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """

        final class Ended: Sendable {
            let error = Mutex<VideoSDKError??>(nil)
        }

        @Test func aSlowDeviceGivesATrackThatOpensOrEndsLater() async throws {
            let directory = try TemporaryDirectory(prefix: "sdk-slow-devices")
            let green = directory.path + "/green.webm", tone = directory.path + "/tone.ogg"
            for (arguments, path) in [(["-f", "lavfi", "-i", "color=c=0x28be46:s=320x180:r=30:d=1", "-c:v", "libvpx", "-b:v", "300k"], green),
                                      (["-f", "lavfi", "-i", "sine=frequency=500:duration=2", "-c:a", "libopus"], tone)] {
                let made = try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-y"] + arguments + [path])
                #expect(made.status == 0, "\(made.standardError)")
            }
            try FileManager.default.copyItem(atPath: green, toPath: directory.path + "/gone.webm")
            let http = try Subprocess("python3", ["-c", Self.server, directory.path], standardOutput: .pipe, standardError: .discard)
            defer {
                http.signal(SIGKILL)
                http.wait()
            }
            let reader = PipeReader(pipe: try #require(http.standardOutputPipe))
            guard case .bytes(let line) = reader.nextLine(timeout: 20, now: { Date().timeIntervalSince1970 }),
                  let port = Int(String(decoding: line, as: UTF8.self))
            else { Issue.record("the gated HTTP server did not start"); return }
            let base = "http://127.0.0.1:\(port)"
            let open = { (name: String, verdict: String) in
                FileManager.default.createFile(atPath: directory.path + "/\(name).gate", contents: Data(verdict.utf8))
            }

            // A camera still opening after 2 s: a track now, black; its pictures once it opens.
            let slow = try VideoSDK.addFileCamera(path: base + "/green.webm", label: "Slow")
            defer { VideoSDK.removeDevice(deviceId: slow.deviceId) }
            let camera = try await VideoSDK.createCameraVideoTrack(encoderConfig: .h180p_w320p, multiStream: false, cameraId: slow.deviceId)
            let pictures = try #require(camera.videoTrack)
            #expect(pictures.source is PendingCamera && !camera.isEnded)
            #expect(pictures.source.frame(0).pixel(x: 160, y: 90) == .black, "black while the camera opens")
            _ = open("green.webm", "open")
            let greenColour = YUVColor(red: 0x28, green: 0xbe, blue: 0x46)
            let opened = await RevueSDKTests.waitUntil(20) { pictures.source.frame(3).pixel(x: 160, y: 90).distance(to: greenColour) < 20 }
            #expect(opened, "the camera's picture once open: \(pictures.source.frame(3).pixel(x: 160, y: 90))")
            #expect(pictures.source.frame(3).width == 320 && !camera.isEnded)
            camera.stop()

            // One that fails after the wait: the track ends with the error, through onEnded.
            let doomed = try VideoSDK.addFileCamera(path: base + "/gone.webm", label: "Doomed")
            defer { VideoSDK.removeDevice(deviceId: doomed.deviceId) }
            let failing = try await VideoSDK.createCameraVideoTrack(encoderConfig: .h180p_w320p, multiStream: false, cameraId: doomed.deviceId)
            let ended = Ended()
            failing.onEnded = { error in ended.error.withLock { $0 = .some(error) } }
            #expect(!failing.isEnded)
            _ = open("gone.webm", "fail")
            #expect(await RevueSDKTests.waitUntil(20) { failing.isEnded })
            let error = ended.error.withLock { $0 }
            #expect(error??.code == 3026, "\(String(describing: error))")

            // A microphone still opening: silence, then its sound.
            let slowMic = try VideoSDK.addFileMicrophone(path: base + "/tone.ogg", label: "Slow microphone")
            defer { VideoSDK.removeDevice(deviceId: slowMic.deviceId) }
            let microphone = try await VideoSDK.createMicrophoneAudioTrack(microphoneId: slowMic.deviceId)
            let sound = try #require(microphone.audioTrack)
            #expect(sound.source is PendingMicrophone && !microphone.isEnded)
            #expect(sound.source.samples(from: 0, count: 960).allSatisfy { $0 == 0 }, "silence while the microphone opens")
            _ = open("tone.ogg", "open")
            let heard = await RevueSDKTests.waitUntil(20) { (sound.source.samples(from: 4_800, count: 960).map(abs).max() ?? 0) > 0.1 }
            #expect(heard, "the microphone's sound once open")
            microphone.stop()

            // A room's camera that fails after enableCam stopped waiting: the error reaches
            // onError only, and the camera goes off again.
            let server = try RoomServerHarness()
            let roomId = try server.makeRoom()
            try FileManager.default.copyItem(atPath: green, toPath: directory.path + "/late.webm")
            let late = try VideoSDK.addFileCamera(path: base + "/late.webm", label: "Late")
            defer { VideoSDK.removeDevice(deviceId: late.deviceId) }
            let room = try VideoSDK.createRoom(roomId: roomId, token: try server.token(), participantName: "Ann", micEnabled: false,
                                               camEnabled: false, signalingURL: "ws://127.0.0.1:\(server.port)/v2/rtc")
            let log = EventLog()
            room.addEventListener(log)
            try await room.join()
            try await room.changeCam(deviceId: late.deviceId)
            try await room.enableCam()
            #expect(await log.wait(for: "streamEnabled local VIDEO"), "\(log.events)")
            #expect(log.errors.isEmpty, "nothing failed yet: \(log.errors)")
            _ = open("late.webm", "fail")
            #expect(await log.wait(for: "error 3026"), "\(log.events)")
            #expect(await log.wait(for: "streamDisabled local VIDEO"), "\(log.events)")
            try await room.leave()
        }
    }
}
