import Foundation
import Media
import Platform
@testable import RevueSDK
import Capture
import Synchronization
import TestSupport
import Testing

/// ALSA microphones as a person and an app meet them: a device in `~/.asoundrc` is listed by
/// `revue devices`, `revue publish --mic alsa:NAME` sends what it captures, and an SDK participant
/// in the room hears it (`ALSAFileDevice`: a `file` device over `null`, as there is no sound card
/// here). Subprocesses, so the device lives in their HOME's configuration and not this process's.
extension RevueSDKTests {
    @MainActor @Suite(.live, .timeLimit(.minutes(10))) struct ALSAMicrophoneDeviceTests {
        final class Heard: Sendable {
            let samples = Mutex<[Float]>([])
        }

        @Test func aDeviceInTheUsersConfigurationIsListedPublishedAndHeard() async throws {
            let home = try TemporaryDirectory(prefix: "alsa-home")
            // Two minutes: the device plays from the bot's start at real time, and a loaded machine may
            // take a while to get the listener that far.
            try ALSAFileDevice.writeTone(home.file("tone.raw"), frequency: 880, seconds: 120)
            try ALSAFileDevice.configuration("revue_test_mic", capturing: home.file("tone.raw"), hint: "Revue test microphone")
                .write(toFile: home.file(".asoundrc"), atomically: true, encoding: .utf8)
            var environment = ProcessInfo.processInfo.environment
            environment["HOME"] = home.path

            let listed = try Subprocess.run(RevueBinary.path, ["devices"], environment: environment)
            print("revue devices printed:\n" + listed.standardOutput + listed.standardError)
            #expect(listed.succeeded)
            let line = listed.standardOutput.split(separator: "\n").first { $0.hasPrefix("alsa:revue_test_mic ") }
            #expect(line?.hasSuffix("Revue test microphone") == true, "\(listed.standardOutput)")
            #expect(!listed.standardOutput.contains("alsa:null"), "the null device is not a microphone")

            let server = try RoomServerHarness()
            let roomId = try server.makeRoom()
            let viewer = try VideoSDK.createRoom(roomId: roomId, token: try server.token(), participantName: "Listener", micEnabled: false,
                                                 camEnabled: false, signalingURL: "ws://127.0.0.1:\(server.port)/v2/rtc")
            let log = EventLog()
            viewer.addEventListener(log)
            try await viewer.join()
            let output = try TemporaryDirectory(prefix: "alsa-publish")
            let bot = try Subprocess(RevueBinary.path, ["publish", roomId, "--name", "ALSA Bot", "--camera", "none", "--mic", "alsa:revue_test_mic",
                                                        "--server", server.base, "--token", try server.token(), "--seconds", "300",
                                                        "--log-level", "warning"],
                                     environment: environment, standardOutput: .file(output.file("stdout")), standardError: .file(output.file("stderr")))
            defer {
                bot.signal(SIGTERM)
                _ = bot.wait(timeout: 15)
            }
            // Alone this takes a few seconds; a CI run once starved the bot's process past 60 s
            // while a summary model ran beside it.
            #expect(await log.wait(timeout: 150) { $0.contains("streamEnabled ALSA Bot AUDIO") }, "\(log.events)")
            let heard = Heard()
            let botParticipant = try #require(viewer.participants.values.first { $0.displayName == "ALSA Bot" })
            botParticipant.stream(of: .AUDIO)?.remoteAudioTrack?.setSampleHandler { chunk in
                // The first channel of the decoded (interleaved) sound.
                let channels = max(1, chunk.channels)
                heard.samples.withLock { $0 += stride(from: 0, to: chunk.samples.count, by: channels).map { chunk.samples[$0] } }
            }
            // Two seconds of sound, then the tone must stand out of it.
            let deadline = Date().addingTimeInterval(60)
            while heard.samples.withLock({ $0.count }) < 96_000 && Date() < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            let samples = heard.samples.withLock { $0 }
            let printed = ((try? String(contentsOfFile: output.file("stdout"), encoding: .utf8)) ?? "") + ((try? String(contentsOfFile: output.file("stderr"), encoding: .utf8)) ?? "")
            print("revue publish printed:\n" + printed)
            #expect(samples.count >= 96_000, "\(samples.count) samples heard")
            let tail = samples.suffix(48_000)
            let prominence = Goertzel.prominence(of: tail, frequency: 880)
            print("measured: ALSA microphone through revue publish: 880 Hz \(String(format: "%.1f", prominence)) dB over its neighbours, "
                + "peak \(tail.map(abs).max() ?? 0)")
            #expect(prominence > 15, "880 Hz is \(prominence) dB over its neighbours")
            #expect(printed.contains("joined room \(roomId) as ALSA Bot"))
            try await viewer.leave()
        }

        /// The SDK lists what the machine's configuration has (here, nothing that captures, or a
        /// real card's devices), and a device id it does not list is refused as the seed says.
        @Test func theSDKListsALSADevicesAndRefusesAnUnlistedOne() async throws {
            let alsa = VideoSDK.getMics().filter { ALSADevice.name(fromID: $0.deviceId) != nil }
            #expect(alsa.map(\.deviceId) == ALSADevice.captureDevices().map(\.id))
            #expect(ALSADevice.name(fromID: "alsa:plughw:1,0") == "plughw:1,0" && ALSADevice.name(fromID: "revue-tone") == nil)
            await #expect(throws: VideoSDKError.ERROR_INVALID_CUSTOM_TRACK_CONFIG) {
                _ = try await VideoSDK.createMicrophoneAudioTrack(microphoneId: "alsa:revue_no_such_device")
            }
            #expect(VideoSDK.getMics().first?.isSpeaker == true, "Speaker stays first")
        }
    }
}
