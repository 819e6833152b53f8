import Foundation
import Media
import Playout
import TestSupport
import Testing

/// The speaker on an ALSA device (ALSA's `file` plugin over `null`, as there is no sound card
/// here): what is written is the mix, at the device's rate, and a device that does not exist is
/// refused in words.
@Suite struct SpeakerPlayoutTests {
    @Test(.live) func aToneIsPlayedAtTheDevicesRate() throws {
        let directory = try TemporaryDirectory(prefix: "speaker")
        let file = directory.file("played.raw")
        let output = SpeakerPlayout.Output(device: "revue_test_speaker", configuration: ALSAFileDevice.playbackConfiguration("revue_test_speaker", writing: file))
        let speaker = try SpeakerPlayout(output: output)
        let push = speaker.attach("alice")
        // 1.5 s of 440 Hz, pushed in 20 ms pieces at about real time.
        let started = Date()
        for index in 0..<75 {
            let samples = (0..<960).map { Float(0.5 * sin(2 * Double.pi * 440 * Double(index * 960 + $0) / 48_000)) }
            push(AudioChunk(samples: samples, channels: 1, mediaTime: Double(index) * 0.02))
            Thread.sleep(until: started.addingTimeInterval(Double(index + 1) * 0.02))
        }
        Thread.sleep(forTimeInterval: 0.3)
        speaker.stop()
        let elapsed = Date().timeIntervalSince(started)
        Thread.sleep(forTimeInterval: 0.1)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        let samples = stride(from: 0, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
        let seconds = Double(samples.count) / 48_000
        // The device took about as much as the time that passed (its 40 ms cushion more; a
        // stall of the thread past 0.1 s is dropped, not caught up: less on a loaded machine).
        #expect(seconds < elapsed + 0.1 && seconds > elapsed * 0.8, "played \(seconds) s in \(elapsed) s")
        #expect(speaker.error == nil)
        let sound = samples.map { Float($0) / 32_768 }
        let toned = sound.filter { abs($0) > 0.3 }.count
        #expect(toned > 48_000 / 2, "only \(toned) loud samples")
        // The tone is 440 Hz, not another.
        let middle = sound[sound.count / 3..<(sound.count / 3 + 4_800)]
        #expect(Goertzel.power(of: middle, frequency: 440) > 20 * Goertzel.power(of: middle, frequency: 1_000))
    }

    @Test func aDeviceThatDoesNotExistIsRefusedInWords() {
        #expect {
            _ = try SpeakerPlayout(output: .init(device: "revue_no_such_speaker"))
        } throws: { error in
            "\(error)".contains("revue_no_such_speaker") && "\(error)".contains("opening it for playback")
        }
    }
}
