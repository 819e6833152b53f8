import Foundation
import Platform
@testable import RevueSDK
import TestSupport
import Testing

/// `Speaker` plays the room: a `revue publish` bot's 880 Hz microphone, received and decoded by
/// an SDK participant, comes out of its ALSA playback device (a `file` device over `null`, as
/// there is no sound card here) at the device's rate; the bot leaving takes it out of the mix;
/// leaving the room closes the device; and a speaker that does not open is 3068 from
/// `setAudioDevice(Speaker)`, while the room itself goes on. And the audio device calls.
extension RevueSDKTests {
    @MainActor @Suite(.live, .timeLimit(.minutes(10))) struct SpeakerTests {
        @Test func theRoomsSoundComesOutOfTheSpeaker() async throws {
            let directory = try TemporaryDirectory(prefix: "sdk-speaker")
            let played = directory.file("played.raw")
            let wav = directory.file("tone.wav")
            let made = try Tool.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=880:sample_rate=48000", "-t", "120", "-ac", "1", wav])
            try #require(made.status == 0, "\(made.standardError)")
            VideoSDK.setSpeakerOutput(SpeakerOutput(device: "revue_test_speaker", configuration: ALSAFileDevice.playbackConfiguration("revue_test_speaker", writing: played)))
            defer { VideoSDK.setSpeakerOutput(SpeakerOutput()) }

            let server = try RoomServerHarness()
            let roomId = try server.makeRoom()
            let listener = try VideoSDK.createRoom(roomId: roomId, token: try server.token(), participantName: "Listener", micEnabled: false,
                                                   camEnabled: false, signalingURL: "ws://127.0.0.1:\(server.port)/v2/rtc")
            let log = EventLog()
            listener.addEventListener(log)
            try await listener.join()
            let speaker = try #require(listener.speaker, "the speaker did not open")
            let bot = try Subprocess(RevueBinary.path, ["publish", roomId, "--name", "Tone Bot", "--camera", "none", "--mic", wav,
                                                        "--server", server.base, "--token", try server.token(), "--log-level", "warning"],
                                     standardOutput: .discard, standardError: .file(directory.file("bot.log")))
            defer {
                bot.signal(SIGTERM)
                _ = bot.wait(timeout: 15)
            }
            #expect(await log.wait(timeout: 120) { $0.contains("streamEnabled Tone Bot AUDIO") }, "\(log.events)")
            #expect(speaker.sourceCount == 1)
            // Two seconds of the bot, then the last of them must be its tone.
            let heardFrom = Self.samples(in: played).count
            let deadline = Date().addingTimeInterval(60)
            while Self.samples(in: played).count < heardFrom + 96_000 && Date() < deadline {
                try await Task.sleep(for: .milliseconds(100))
            }
            let sound = Self.samples(in: played)
            #expect(sound.count >= heardFrom + 96_000, "\(sound.count) samples played")
            let tail = sound.suffix(48_000)
            let prominence = Goertzel.prominence(of: tail, frequency: 880)
            print("measured: the speaker played 880 Hz \(String(format: "%.1f", prominence)) dB over its neighbours, peak \(tail.map(abs).max() ?? 0)")
            #expect(prominence > 15, "880 Hz is \(prominence) dB over its neighbours")
            // Choosing the speaker again is accepted (it is open); the listener hears it chosen.
            let speakerDevice = try #require(VideoSDK.getMics().first { $0.isSpeaker })
            try listener.setAudioDevice(speakerDevice)

            bot.signal(SIGTERM)
            _ = bot.wait(timeout: 15)
            #expect(await log.wait(timeout: 30) { $0.contains { $0.hasPrefix("participantLeft Tone Bot") } }, "\(log.events)")
            #expect(speaker.sourceCount == 0, "the bot stayed in the mix")
            try await listener.leave()
            // Within a tick and the device's buffer it stops for good.
            try await Task.sleep(for: .milliseconds(400))
            let closedAt = Self.samples(in: played).count
            try await Task.sleep(for: .milliseconds(400))
            #expect(Self.samples(in: played).count == closedAt, "the speaker played on after leave")
            #expect(listener.speaker == nil)
        }

        @Test func aSpeakerThatDoesNotOpenIs3068AndTheRoomGoesOn() async throws {
            VideoSDK.setSpeakerOutput(SpeakerOutput(device: "revue_no_such_speaker"))
            defer { VideoSDK.setSpeakerOutput(SpeakerOutput()) }
            let server = try RoomServerHarness()
            let roomId = try server.makeRoom()
            let room = try VideoSDK.createRoom(roomId: roomId, token: try server.token(), participantName: "Deaf", micEnabled: false,
                                               camEnabled: false, signalingURL: "ws://127.0.0.1:\(server.port)/v2/rtc")
            let log = EventLog()
            room.addEventListener(log)
            try await room.join()
            #expect(room.state == .CONNECTED && room.speaker == nil)
            let speakerDevice = try #require(VideoSDK.getMics().first { $0.isSpeaker })
            #expect(throws: VideoSDKError.ERROR_ACTION_NOT_SUPPORTED) { try room.setAudioDevice(speakerDevice) }
            #expect(await log.wait(timeout: 5) { $0.contains { $0.hasPrefix("error 3068") } }, "onError was not told: \(log.events)")
            try await room.leave()
        }

        /// `setAudioDevice` with a microphone that does not open throws it (and tells `onError`)
        /// and changes nothing; the change listener hears a device come and go.
        @Test func setAudioDeviceFailsInWordsAndTheListenerHearsDevicesCome() async throws {
            let directory = try TemporaryDirectory(prefix: "sdk-devices")
            let broken = directory.file("broken.mp3")
            try Data("not a sound file".utf8).write(to: URL(fileURLWithPath: broken))
            let brokenMic = try VideoSDK.addFileMicrophone(path: broken, label: "Broken")
            defer { VideoSDK.removeDevice(deviceId: brokenMic.deviceId) }
            let server = try RoomServerHarness()
            let roomId = try server.makeRoom()
            let room = try VideoSDK.createRoom(roomId: roomId, token: try server.token(), participantName: "Switcher", micEnabled: true,
                                               camEnabled: false, signalingURL: "ws://127.0.0.1:\(server.port)/v2/rtc")
            let log = EventLog()
            room.addEventListener(log)
            try await room.join()
            #expect(await log.wait(timeout: 30) { $0.contains("streamEnabled local AUDIO") }, "\(log.events)")
            let before = room.microphoneTrack?.microphoneId
            #expect(throws: VideoSDKError.self) { try room.setAudioDevice(brokenMic) }
            #expect(await log.wait(timeout: 5) { $0.contains { $0.hasPrefix("error 30") } }, "onError was not told: \(log.events)")
            #expect(room.microphoneTrack?.microphoneId == before && room.micOn, "a failed change changed the microphone")

            let calls = CallCounter()
            room.setAudioDeviceChangeListener { _, available in calls.record(available.map(\.deviceId)) }
            #expect(calls.count == 1, "called at once")
            let wav = directory.file("late.wav")
            try WAVFile.write((0..<48_000).map { Float(0.3 * sin(2 * Double.pi * 660 * Double($0) / 48_000)) }, channels: 1, float: false, to: wav)
            let late = try VideoSDK.addFileMicrophone(path: wav, label: "Plugged in")
            defer { VideoSDK.removeDevice(deviceId: late.deviceId) }
            let heard = await Self.waitUntil(5) { calls.last?.contains(late.deviceId) == true }
            #expect(heard, "the listener did not hear the new device: \(calls.last ?? [])")
            // A listed microphone: setAudioDevice selects it, off and on again (the seed: "Any
            // other device selects that microphone").
            let mark = log.events.count
            try room.setAudioDevice(late)
            #expect(await Self.waitUntil(5) { room.microphoneTrack?.microphoneId == late.deviceId && room.micOn },
                    "\(String(describing: room.microphoneTrack?.microphoneId))")
            #expect(await log.wait(timeout: 5) { Array($0.dropFirst(mark)) == ["streamDisabled local AUDIO", "streamEnabled local AUDIO"] },
                    "\(log.events)")
            VideoSDK.removeDevice(deviceId: late.deviceId)
            let gone = await Self.waitUntil(5) { calls.last?.contains(late.deviceId) == false }
            #expect(gone, "the listener did not hear the device go")
            room.setAudioDeviceChangeListener(nil)
            try await room.leave()
        }

        @MainActor final class CallCounter {
            private(set) var lists: [[String]] = []
            var count: Int { lists.count }
            var last: [String]? { lists.last }
            func record(_ list: [String]) { lists.append(list) }
        }

        static func waitUntil(_ seconds: Double, _ condition: () -> Bool) async -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while !condition() && Date() < deadline { try? await Task.sleep(for: .milliseconds(100)) }
            return condition()
        }

        static func samples(in file: String) -> [Float] {
            guard let bytes = try? Data(contentsOf: URL(fileURLWithPath: file)) else { return [] }
            return stride(from: 0, to: bytes.count - 1, by: 2).map { Float(Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)) / 32_768 }
        }
    }
}
