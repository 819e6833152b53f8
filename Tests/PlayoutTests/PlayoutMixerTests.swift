import Media
@testable import Playout
import Testing

/// The mix: sources add, clip, wait for their cushion, play silence when dry, and drop what
/// is too late.
@Suite struct PlayoutMixerTests {
    static func chunk(_ value: Float, count: Int, channels: Int = 1) -> AudioChunk {
        AudioChunk(samples: [Float](repeating: value, count: count * channels), channels: channels, mediaTime: 0)
    }

    @Test func twoSourcesAreAddedAndClipped() {
        var mixer = PlayoutMixer(startQueued: 10, maximumQueued: 100)
        mixer.add("a")
        mixer.add("b")
        mixer.push(Self.chunk(0.25, count: 20), from: "a")
        mixer.push(Self.chunk(0.5, count: 20, channels: 2), from: "b")
        #expect(mixer.pull(20).allSatisfy { abs(Int($0) - 24_575) <= 1 })
        mixer.push(Self.chunk(0.9, count: 20), from: "a")
        mixer.push(Self.chunk(0.9, count: 20), from: "b")
        #expect(mixer.pull(20).allSatisfy { $0 == 32_767 }, "1.8 clips")
    }

    @Test func aSourceWaitsForItsCushionAndPlaysSilenceWhenDry() {
        var mixer = PlayoutMixer(startQueued: 10, maximumQueued: 100)
        mixer.add("a")
        mixer.push(Self.chunk(0.5, count: 6), from: "a")
        #expect(mixer.pull(6) == [Int16](repeating: 0, count: 6), "under its cushion")
        mixer.push(Self.chunk(0.5, count: 6), from: "a")
        let played = mixer.pull(16)
        #expect(played.prefix(12).allSatisfy { $0 > 16_000 } && played.suffix(4).allSatisfy { $0 == 0 }, "\(played)")
        // Dry: it waits for a cushion again.
        mixer.push(Self.chunk(0.5, count: 5), from: "a")
        #expect(mixer.pull(5) == [Int16](repeating: 0, count: 5))
    }

    @Test func lateSoundIsDroppedAndUnknownSourcesAreIgnored() {
        var mixer = PlayoutMixer(startQueued: 10, maximumQueued: 50)
        mixer.add("a")
        mixer.push(Self.chunk(0.1, count: 40), from: "a")
        mixer.push(Self.chunk(0.5, count: 40), from: "a")
        #expect(mixer.dropped == 30)
        let played = mixer.pull(50)
        #expect(played.prefix(10).allSatisfy { abs(Int($0) - 3_277) <= 1 } && played.suffix(40).allSatisfy { abs(Int($0) - 16_384) <= 1 })
        mixer.push(Self.chunk(0.5, count: 40), from: "nobody")
        mixer.remove("a")
        #expect(mixer.sourceCount == 0 && mixer.pull(4) == [0, 0, 0, 0])
    }
}
