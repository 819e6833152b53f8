import Capture
import Foundation
import Media
@testable import RevueSDK
import Segmentation
import Synchronization
import TestSupport
import Testing

/// `VideoSDKBackgroundProcessor(backgroundSource:)` (seed 004's example) against a real room
/// server and the real segmentation helper: a participant whose camera shows a person on a grey
/// wall sends the person over a green picture, and the one watching decodes green where the wall
/// was and the person where she is.
extension RevueSDKTests {
    @MainActor @Suite(.live, .timeLimit(.minutes(10))) struct VirtualBackgroundTests {
        static let green = YUVColor(red: 40, green: 190, blue: 70)

        final class LastPicture: Sendable {
            let picture = Mutex<VideoFrame?>(nil)
        }

        /// The camera's picture: the astronaut photo (NASA, public domain) centred on a grey
        /// 640x360 wall, as a PNG a file camera plays; and a green 640x360 background.
        static func pictures(in directory: String) throws -> (person: String, background: String) {
            let photo = try SegmentationRuntime.locate().directory + "/astronaut.png"
            let person = directory + "/person.png"
            let background = directory + "/green.png"
            let made = try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=0x7e7e7e:s=640x360", "-i", photo,
                                               "-filter_complex", "[1]scale=360:360[p];[0][p]overlay=140:0", "-frames:v", "1", person])
            #expect(made.status == 0, "\(made.standardError)")
            let green = try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=0x28be46:s=1280x720",
                                                "-frames:v", "1", background])
            #expect(green.status == 0, "\(green.standardError)")
            return (person, background)
        }

        /// The mean colour of a rectangle given in fractions of the picture.
        static func mean(_ frame: VideoFrame, x: ClosedRange<Double>, y: ClosedRange<Double>) -> YUVColor {
            var sums = (0, 0, 0)
            var count = 0
            for row in Int(y.lowerBound * Double(frame.height))..<Int(y.upperBound * Double(frame.height)) {
                for column in Int(x.lowerBound * Double(frame.width))..<Int(x.upperBound * Double(frame.width)) {
                    let pixel = frame.pixel(x: column, y: row)
                    sums = (sums.0 + Int(pixel.y), sums.1 + Int(pixel.u), sums.2 + Int(pixel.v))
                    count += 1
                }
            }
            return YUVColor(y: UInt8(sums.0 / max(1, count)), u: UInt8(sums.1 / max(1, count)), v: UInt8(sums.2 / max(1, count)))
        }

        static let face = (x: 0.45...0.50, y: 0.15...0.30)
        static let bands = [(x: 0.02...0.18, y: 0.05...0.95), (x: 0.82...0.98, y: 0.05...0.95)]

        @Test func theOthersSeeThePersonOverTheNewBackground() async throws {
            let directory = NSTemporaryDirectory() + "revue-vbg-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let (personPath, backgroundPath) = try Self.pictures(in: directory)
            let original = try MediaFileCamera(path: personPath).frame(0)
            let faceColour = Self.mean(original, x: Self.face.x, y: Self.face.y)

            let server = try RoomServerHarness()
            let roomId = try server.makeRoom()
            let url = "ws://127.0.0.1:\(server.port)/v2/rtc"
            let device = try VideoSDK.addFileCamera(path: personPath, label: "Person")
            defer { VideoSDK.removeDevice(deviceId: device.deviceId) }
            let camera = try await VideoSDK.createCameraVideoTrack(encoderConfig: .h360p_w640p, multiStream: false, cameraId: device.deviceId)
            let john = try VideoSDK.createRoom(roomId: roomId, token: try server.token(), participantName: "John", micEnabled: false,
                                               camEnabled: true, customCameraTrack: camera, signalingURL: url)
            let johnLog = EventLog()
            john.addEventListener(johnLog)
            // The seed's example, with a local file for the CDN's picture.
            let backgroundSource = URL(fileURLWithPath: backgroundPath)
            let processor = VideoSDKBackgroundProcessor(backgroundSource: backgroundSource)
            john.setVideoProcessor(processor: processor)
            try await john.join()
            #expect(await johnLog.wait(for: "streamEnabled local VIDEO"), "\(johnLog.events)")

            let (bob, video) = try await VideoProcessorTests.watchJohn(roomId: roomId, server: server, url: url)
            let last = LastPicture()
            video.setFrameHandler { picture in last.picture.withLock { $0 = picture } }

            // Green where the wall was, on both sides; her face as the camera shows it.
            let replaced = await VideoProcessorTests.wait(30) {
                guard let picture = last.picture.withLock({ $0 }), picture.width == 640 else { return false }
                return Self.bands.allSatisfy { Self.mean(picture, x: $0.x, y: $0.y).distance(to: Self.green) < 20 }
                    && Self.mean(picture, x: Self.face.x, y: Self.face.y).distance(to: faceColour) < 20
            }
            let seen = try #require(last.picture.withLock { $0 })
            let bands = Self.bands.map { Self.mean(seen, x: $0.x, y: $0.y) }
            let face = Self.mean(seen, x: Self.face.x, y: Self.face.y)
            #expect(replaced, "Bob decodes the wall as \(bands) (green is \(Self.green)) and the face as \(face) (the camera's \(faceColour))")
            #expect(processor.isSegmenting && processor.failure == nil)
            #expect(!johnLog.events.contains { $0.hasPrefix("error") }, "\(johnLog.events)")
            print("measured: virtual background: Bob sees the wall as \(bands) for green \(Self.green), the face as \(face) for \(faceColour)")
            try await bob.leave()
            try await john.leave()
        }

        /// A background image that cannot be read: 3073 reaches `onError`, and the camera's own
        /// picture goes blurred behind the person instead.
        @Test func anUnreadableBackgroundIsReportedAndTheRoomIsBlurredInstead() async throws {
            let server = try RoomServerHarness()
            let roomId = try server.makeRoom()
            let john = try VideoSDK.createRoom(roomId: roomId, token: try server.token(), participantName: "John", micEnabled: false,
                                               camEnabled: false, signalingURL: "ws://127.0.0.1:\(server.port)/v2/rtc")
            let log = EventLog()
            john.addEventListener(log)
            let processor = VideoSDKBackgroundProcessor(backgroundSource: URL(fileURLWithPath: "/nonexistent/cloud.jpeg"))
            john.setVideoProcessor(processor: processor)
            #expect(await log.wait(for: "error 3073"), "\(log.events)")
            #expect(log.errors.first?.message.contains("/nonexistent/cloud.jpeg") == true, "\(log.errors)")
            #expect(await VideoProcessorTests.wait(30) { processor.isSegmenting })
            var wall = VideoFrame(width: 640, height: 360, color: YUVColor(y: 126, u: 128, v: 128))
            for row in 0..<360 { for column in 0..<640 where (row / 4 + column / 4) % 2 == 0 { wall.y[row * 640 + column] = 40 } }
            let out = try #require(processor.onFrameReceived(wall))
            #expect(out.width == 640 && out.y != wall.y, "the wall is not sent as the camera saw it")
        }
    }
}
