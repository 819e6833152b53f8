import Foundation
import Capture
import TestSupport
import Testing

/// A microphone through ALSA (`ALSAMicrophone`), on a device libasound really opens and reads
/// (`ALSAFileDevice`: this machine has no sound card, so ALSA's `file` plugin over `null`
/// captures a raw file of ours, through the same calls a card takes).
@Suite struct ALSAMicrophoneTests {
    /// Synchronous on purpose: the publisher pulls from a thread of its own, and a test on the
    /// shared cooperative pool could be held up while the device plays on.
    @Test func aDeviceIsReadAtRealTimeAndItsSoundComesThrough() throws {
        let directory = try TemporaryDirectory(prefix: "alsa")
        try ALSAFileDevice.writeTone(directory.file("tone.raw"), frequency: 880, seconds: 20)
        let opened = ContinuousClock.now
        let microphone = try ALSAMicrophone(device: "revue_test_mic", configuration: ALSAFileDevice.configuration("revue_test_mic", capturing: directory.file("tone.raw")))
        #expect(microphone.device == "revue_test_mic")
        // The publisher's pull, 20 ms at a time: silence while too little has come (kept out
        // here), then the tone.
        var heard: [Float] = []
        for _ in 0..<400 where heard.count < 9_600 {
            let block = microphone.samples(from: 0, count: 960)
            if !block.allSatisfy({ $0 == 0 }) { heard += block }
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(heard.count == 9_600, "the device gave too little within 8 s")
        let prominence = Goertzel.prominence(of: heard[...], frequency: 880)
        let peak = heard.map(abs).max() ?? 0
        print("measured: ALSA file device: 880 Hz \(String(format: "%.1f", prominence)) dB over its neighbours, peak \(peak)")
        #expect(prominence > 20, "880 Hz is \(prominence) dB over its neighbours")
        #expect(abs(peak - 0.4) < 0.02, "the file's amplitude is 0.4; heard \(peak)")
        // The device has no clock of its own (the null plugin answers at once), yet it is not
        // read ahead of real time by more than the 100 ms allowed.
        // Captured first, then the time: a pause between the two only widens the margin.
        let captured = Double(microphone.samplesCaptured) / 48_000
        let elapsed = opened.duration(to: .now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        print("measured: ALSA file device: \(String(format: "%.2f", captured)) s captured in \(String(format: "%.2f", seconds)) s")
        #expect(captured <= seconds + 0.15, "\(captured) s captured in \(seconds) s: read ahead of real time")
        #expect(microphone.failure == nil)

        // Stopped, it reads no more.
        microphone.stop()
        var last = microphone.samplesCaptured
        var stable = 0
        for _ in 0..<40 where stable < 5 {
            Thread.sleep(forTimeInterval: 0.1)
            let now = microphone.samplesCaptured
            stable = now == last ? stable + 1 : 0
            last = now
        }
        #expect(stable >= 5, "still capturing after stop()")
    }

    @Test func aDeviceThatCannotBeOpenedSaysWhichAndWhy() {
        let missing = #expect(throws: ALSAError.self) { try ALSAMicrophone(device: "revue_no_such_device") }
        #expect(missing?.code == -ENOENT && missing?.operation == "opening it for capture", "\(String(describing: missing))")
        #expect(missing?.description.contains("ALSA device revue_no_such_device") == true, "\(String(describing: missing))")
        let garbled = #expect(throws: ALSAError.self) { try ALSAMicrophone(device: "x", configuration: "pcm.x { type file slave") }
        #expect(garbled?.operation == "reading its configuration", "\(String(describing: garbled))")
        // A device that exists but is not a capture device of this kind.
        let unknownType = #expect(throws: ALSAError.self) { try ALSAMicrophone(device: "y", configuration: "pcm.y { type revue_nonexistent_plugin }") }
        #expect(unknownType?.operation == "opening it for capture", "\(String(describing: unknownType))")
    }

    /// Nothing listed is an output or the null device, whatever this machine has.
    @Test func theListHoldsNoOutputsAndNoNullDevice() {
        for device in ALSADevice.captureDevices() {
            #expect(!device.name.hasPrefix("null") && !device.name.hasPrefix("hdmi:") && !device.name.hasPrefix("dmix"), "\(device)")
            #expect(!device.description.contains("\n"))
        }
    }
}
