import Foundation
import Media
@testable import RevueSDK
import Synchronization
import TestSupport
import Testing

/// Issue 25 item 14: a stereo profile sends stereo Opus. A file microphone plays a stereo wav
/// (440 Hz on the left, 880 Hz on the right) through `high_quality_stereo`; another participant
/// decodes two channels, each with its own tone and not the other's. A mono profile of the same
/// file is heard as the two tones mixed, the same in both channels.
extension RevueSDKTests {
    @MainActor @Suite(.live, .timeLimit(.minutes(10))) struct StereoMicrophoneTests {
        final class Heard: Sendable {
            let left = Mutex<[Float]>([])
            let right = Mutex<[Float]>([])
            let channels = Mutex<Set<Int>>([])
        }

        /// Two seconds of 48 kHz stereo, 32-bit float: `left` Hz on the left, `right` Hz on the right.
        static func writeStereoWAV(_ path: String, left: Double, right: Double) throws {
            var samples: [Float] = []
            for frame in 0..<96_000 {
                let time = Double(frame) / 48_000
                samples.append(Float(0.3 * sin(2 * Double.pi * left * time)))
                samples.append(Float(0.3 * sin(2 * Double.pi * right * time)))
            }
            try WAVFile.write(samples, channels: 2, float: true, to: path)
        }

        func listen(profile: CustomMicrophoneTrackConfig, file: String, server: RoomServerHarness) async throws -> Heard {
            let roomId = try server.makeRoom()
            let signalingURL = "ws://127.0.0.1:\(server.port)/v2/rtc"
            let listener = try VideoSDK.createRoom(roomId: roomId, token: try server.token(), participantName: "Listener", micEnabled: false,
                                                   camEnabled: false, signalingURL: signalingURL)
            let log = EventLog()
            listener.addEventListener(log)
            try await listener.join()
            let device = try VideoSDK.addFileMicrophone(path: file, label: "Stereo file")
            defer { VideoSDK.removeDevice(deviceId: device.deviceId) }
            let track = try await VideoSDK.createMicrophoneAudioTrack(encoderConfig: profile, microphoneId: device.deviceId)
            let sender = try VideoSDK.createRoom(roomId: roomId, token: try server.token(), participantName: "Stereo", micEnabled: true, camEnabled: false,
                                                 customMicrophoneTrack: track, signalingURL: signalingURL)
            try await sender.join()
            #expect(await log.wait(for: "streamEnabled Stereo AUDIO"), "\(log.events)")
            let heard = Heard()
            let participant = try #require(listener.participants.values.first { $0.displayName == "Stereo" })
            participant.stream(of: .AUDIO)?.remoteAudioTrack?.setSampleHandler { chunk in
                heard.channels.withLock { _ = $0.insert(chunk.channels) }
                guard chunk.channels == 2 else { return }
                heard.left.withLock { $0 += stride(from: 0, to: chunk.samples.count, by: 2).map { chunk.samples[$0] } }
                heard.right.withLock { $0 += stride(from: 1, to: chunk.samples.count, by: 2).map { chunk.samples[$0] } }
            }
            let deadline = Date().addingTimeInterval(60)
            while heard.left.withLock({ $0.count }) < 96_000 && Date() < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            try await sender.leave()
            try await listener.leave()
            return heard
        }

        @Test func aStereoProfileIsHeardInTwoChannels() async throws {
            let server = try RoomServerHarness()
            let media = try TemporaryDirectory(prefix: "stereo")
            let file = media.file("stereo.wav")
            try Self.writeStereoWAV(file, left: 440, right: 880)

            let stereo = try await listen(profile: .high_quality_stereo, file: file, server: server)
            let left = stereo.left.withLock { $0 }.suffix(48_000), right = stereo.right.withLock { $0 }.suffix(48_000)
            #expect(left.count == 48_000 && right.count == 48_000, "\(left.count) \(right.count)")
            let prominence = [(left, 440.0), (left, 880.0), (right, 880.0), (right, 440.0)].map { Goertzel.prominence(of: $0.0, frequency: $0.1) }
            print("measured: high_quality_stereo heard: left 440 Hz \(String(format: "%.1f", prominence[0])) dB, 880 Hz \(String(format: "%.1f", prominence[1])) dB; "
                + "right 880 Hz \(String(format: "%.1f", prominence[2])) dB, 440 Hz \(String(format: "%.1f", prominence[3])) dB")
            #expect(prominence[0] > 15 && prominence[2] > 15, "each side's own tone")
            #expect(prominence[1] < 6 && prominence[3] < 6, "none of the other side's")

            // The same file through a mono profile: both tones, alike on both sides.
            let mono = try await listen(profile: .high_quality, file: file, server: server)
            let monoLeft = mono.left.withLock { $0 }.suffix(48_000), monoRight = mono.right.withLock { $0 }.suffix(48_000)
            #expect(monoLeft.count == 48_000, "\(monoLeft.count) samples, channels \(mono.channels.withLock { $0 })")
            #expect(Goertzel.prominence(of: monoLeft, frequency: 440) > 15 && Goertzel.prominence(of: monoLeft, frequency: 880) > 15)
            #expect(zip(monoLeft, monoRight).allSatisfy { abs($0 - $1) < 0.01 }, "a mono track is the same in both channels")
        }
    }
}
