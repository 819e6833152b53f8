import Foundation
import Testing

@testable import Speech

@Suite struct DownsamplerTests {
    static func tone(_ frequency: Double, seconds: Double) -> [Float] {
        (0..<Int(seconds * 48_000)).map { Float(0.5 * sin(2 * .pi * frequency * Double($0) / 48_000)) }
    }

    static func rms(_ samples: ArraySlice<Float>) -> Float { (samples.reduce(0) { $0 + $1 * $1 } / Float(samples.count)).squareRoot() }

    @Test func speechBandPassesAndAboveEightKilohertzIsRemoved() {
        var pass = Downsampler(), stop = Downsampler()
        let kept = pass.process(Self.tone(1_000, seconds: 1))
        let removed = stop.process(Self.tone(10_000, seconds: 1))
        #expect(abs(kept.count - 16_000) <= 16)
        #expect(abs(Self.rms(kept[1_000...]) - 0.3536) < 0.01)
        // 10 kHz would fold to 6 kHz at 16 kHz: it must be at least 40 dB down.
        #expect(Self.rms(removed[1_000...]) < 0.3536 / 100)
    }

    @Test func blocksOfAnySizeGiveTheSameSamples() {
        let input = Self.tone(440, seconds: 0.5) + Self.tone(2_000, seconds: 0.5)
        var whole = Downsampler()
        let expected = whole.process(input)
        var chunked = Downsampler()
        var got: [Float] = []
        var offset = 0, size = 1
        while offset < input.count {
            let end = min(input.count, offset + size)
            got += chunked.process(Array(input[offset..<end]))
            offset = end
            size = size * 7 % 1_031 + 1
        }
        #expect(got == expected)
    }
}
