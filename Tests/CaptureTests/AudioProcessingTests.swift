import Foundation
import Capture
import TestSupport
import Testing

/// WebRTC's audio processing module through `ProcessedMicrophone`, shown to change the signal
/// the way each stage should: noise suppression lowers white noise under a tone and keeps the
/// tone, the high-pass filter removes a 30 Hz hum and keeps speech frequencies, the echo
/// canceller removes the far-end's echo, the gain control lifts a quiet microphone.
@Suite struct AudioProcessingTests {
    /// A microphone made of a function of the sample position, so a test says what it plays.
    final class SyntheticMicrophone: MicrophoneSource, @unchecked Sendable {
        let sample: @Sendable (Int) -> Float
        init(_ sample: @escaping @Sendable (Int) -> Float) { self.sample = sample }
        func samples(from start: Int, count: Int) -> [Float] { (start..<(start + count)).map(sample) }
    }

    /// Deterministic white noise in ±1 from a sample position (a hash, so any position is exact).
    static func noise(_ index: Int, seed: UInt64) -> Float {
        var value = UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15 ^ seed
        value ^= value >> 31
        value = value &* 0xBF58_476D_1CE4_E5B9
        value ^= value >> 29
        return Float(Double(value >> 11) / Double(1 << 53) * 2 - 1)
    }

    static func tone(_ index: Int, _ frequency: Double, _ amplitude: Double) -> Float {
        Float(amplitude * sin(2 * Double.pi * frequency * Double(index) / 48_000))
    }

    /// Reads a microphone as a publisher does: 20 ms at a time, from the start, for `seconds`.
    static func record(_ microphone: any MicrophoneSource, seconds: Double) -> [Float] {
        stride(from: 0, to: Int(seconds * 48_000), by: 960).flatMap { microphone.samples(from: $0, count: 960) }
    }

    static func decibels(_ ratio: Double) -> Double { 10 * log10(max(ratio, 1e-20)) }

    /// The mean power of frequencies away from a tone: the noise floor.
    static func noiseFloor(_ samples: ArraySlice<Float>) -> Double {
        let frequencies = [1_370.0, 1_930, 2_610, 3_170, 3_790, 4_430, 5_210, 6_070]
        return frequencies.map { Goertzel.power(of: samples, frequency: $0) }.reduce(0, +) / Double(frequencies.count)
    }

    static func rms(_ samples: ArraySlice<Float>) -> Double {
        (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, samples.count))).squareRoot()
    }

    @Test func noiseSuppressionLowersNoiseAndKeepsTheTone() throws {
        // The tone comes and goes (a quarter of a second on, a quarter off) as speech does: a
        // tone that never stops is stationary, and the suppressor learns it as noise.
        let noisy = SyntheticMicrophone { (($0 / 12_000) % 2 == 0 ? Self.tone($0, 440, 0.3) : 0) + 0.05 * Self.noise($0, seed: 1) }
        let processed = try ProcessedMicrophone(source: noisy, settings: .init(noiseSuppression: true, noiseSuppressionLevel: .high))
        let before = Self.record(noisy, seconds: 4)[96_000...], after = Self.record(processed, seconds: 4)[96_000...]
        let noise = Self.decibels(Self.noiseFloor(after) / Self.noiseFloor(before))
        let tone = Self.decibels(Goertzel.power(of: after, frequency: 440) / Goertzel.power(of: before, frequency: 440))
        print(String(format: "measured: noise suppression: noise floor %+.1f dB, 440 Hz tone %+.1f dB", noise, tone))
        #expect(noise < -6, "the noise floor moved \(noise) dB")
        #expect(abs(tone) < 3, "the tone moved \(tone) dB")
        #expect(processed.counts.processed == 400 && processed.counts.failed == 0)
    }

    @Test func theHighPassFilterRemovesAHum() throws {
        let hum = SyntheticMicrophone { Self.tone($0, 30, 0.3) + Self.tone($0, 1_000, 0.2) }
        let processed = try ProcessedMicrophone(source: hum, settings: .init(highPassFilter: true))
        let before = Self.record(hum, seconds: 3)[48_000...], after = Self.record(processed, seconds: 3)[48_000...]
        let low = Self.decibels(Goertzel.power(of: after, frequency: 30) / Goertzel.power(of: before, frequency: 30))
        let voice = Self.decibels(Goertzel.power(of: after, frequency: 1_000) / Goertzel.power(of: before, frequency: 1_000))
        print(String(format: "measured: high-pass: 30 Hz %+.1f dB, 1 kHz %+.1f dB", low, voice))
        #expect(low < -10, "the hum moved \(low) dB")
        #expect(abs(voice) < 1.5, "1 kHz moved \(voice) dB")
    }

    @Test func theEchoCancellerRemovesTheFarEndsEcho() throws {
        // The far end plays noise; the microphone hears it 40 ms later at half the level.
        let played = SyntheticMicrophone { 0.3 * Self.noise($0, seed: 2) }
        let echo = SyntheticMicrophone { $0 >= 1_920 ? 0.15 * Self.noise($0 - 1_920, seed: 2) : 0 }
        let processed = try ProcessedMicrophone(source: echo, settings: .init(echoCancellation: true), farEnd: played, echoDelayMilliseconds: 40)
        let before = Self.record(echo, seconds: 5)[144_000...], after = Self.record(processed, seconds: 5)[144_000...]
        let change = 20 * log10(max(Self.rms(after), 1e-10) / Self.rms(before))
        print(String(format: "measured: echo cancellation: echo %+.1f dB (rms %.4f → %.4f)", change, Self.rms(before), Self.rms(after)))
        #expect(change < -10, "the echo moved \(change) dB")
    }

    @Test func gainControlLiftsAQuietMicrophone() throws {
        // A tone at -43 dBFS, switching on and off as speech does.
        let quiet = SyntheticMicrophone { ($0 / 24_000) % 2 == 0 ? Self.tone($0, 300, 0.01) : 0 }
        let processed = try ProcessedMicrophone(source: quiet, settings: .init(gainControl: true))
        let before = Self.record(quiet, seconds: 6)[192_000...], after = Self.record(processed, seconds: 6)[192_000...]
        let change = 20 * log10(max(Self.rms(after), 1e-10) / Self.rms(before))
        print(String(format: "measured: gain control: %+.1f dB (rms %.4f → %.4f)", change, Self.rms(before), Self.rms(after)))
        #expect(change > 6, "the level moved \(change) dB")
    }

    /// The wrapper's bookkeeping: reads of any length and position give what one continuous
    /// pass gives, and a jump ahead carries on from there.
    @Test func readsInAnyPatternGiveTheSameProcessedStream() throws {
        let source = SyntheticMicrophone { Self.tone($0, 30, 0.3) + Self.tone($0, 700, 0.1) }
        let settings = AudioProcessor.Settings(highPassFilter: true)
        let reference = Self.record(try ProcessedMicrophone(source: source, settings: settings), seconds: 1)
        let microphone = try ProcessedMicrophone(source: source, settings: settings)
        var joined: [Float] = []
        var position = 0
        for length in [1, 479, 480, 481, 960, 5_000, 77] {
            joined += microphone.samples(from: position, count: length)
            position += length
        }
        #expect(joined == Array(reference[0..<position]))
        // A re-read of recent samples gives the same samples.
        #expect(microphone.samples(from: 100, count: 300) == Array(reference[100..<400]))
        // A jump ahead processes from the frame holding the new position, and keeps counting.
        let ahead = microphone.samples(from: 40_000, count: 960)
        #expect(ahead.count == 960)
        #expect(microphone.counts.failed == 0)
        #expect(microphone.samples(from: -1, count: 10).isEmpty && microphone.samples(from: 0, count: 0).isEmpty)
    }

    @Test func unusableRatesAreRefused() {
        #expect(throws: AudioProcessingError.self) { try AudioProcessor(settings: .voice, sampleRate: 44_100) }
    }
}
