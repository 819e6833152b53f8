import Foundation
import Testing
import TestKit

@testable import Speech

@Suite struct VoiceActivityDetectorTests {
    /// A "voice": a 220 Hz tone with a 4 Hz syllable envelope at about -20 dBFS.
    static func voice(seconds: Double) -> [Float] {
        (0..<Int(seconds * 16_000)).map { index in
            let time = Float(index) / 16_000
            return 0.2 * sin(2 * .pi * 220 * time) * (0.6 + 0.4 * sin(2 * .pi * 4 * time))
        }
    }

    static func silence(seconds: Double) -> [Float] { [Float](repeating: 0, count: Int(seconds * 16_000)) }

    static func noise(seconds: Double, amplitude: Float, seed: UInt64 = 7) -> [Float] {
        var generator = SeededGenerator(seed: seed)
        return (0..<Int(seconds * 16_000)).map { _ in Float.random(in: -amplitude...amplitude, using: &generator) }
    }

    @Test func silenceGivesNoUtterance() {
        var detector = VoiceActivityDetector()
        #expect(detector.feed(Self.silence(seconds: 5)).isEmpty)
        #expect(detector.flush().isEmpty)
    }

    @Test func twoPhrasesGiveTwoUtterancesWithTheirTimes() {
        var detector = VoiceActivityDetector(origin: 100)
        let audio = Self.silence(seconds: 1) + Self.voice(seconds: 1.5) + Self.silence(seconds: 1.2) + Self.voice(seconds: 2) + Self.silence(seconds: 1)
        let utterances = detector.feed(audio) + detector.flush()
        #expect(utterances.count == 2)
        guard utterances.count == 2 else { return }
        // Each starts a pre-roll (0.25 s) before its voice, and ends a post-roll after it.
        #expect(abs(utterances[0].start - 100.75) < 0.05)
        #expect(abs(utterances[0].end - 102.7) < 0.06)
        #expect(abs(utterances[1].start - (100 + 3.7 - 0.25)) < 0.05)
        #expect(abs(utterances[1].end - (100 + 5.7 + 0.2)) < 0.06)
        // Each knows where in it the voice began: after its pre-roll.
        #expect(abs(utterances[0].start + utterances[0].voiceOnset - 101) < 0.03)
        #expect(abs(utterances[1].start + utterances[1].voiceOnset - 103.7) < 0.03)
    }

    /// An engine that times its first word from the clip's first sample (Whisper does) is moved
    /// to the voice's onset; what it heard later, and a segment after the onset, stay.
    @Test func nothingHeardStartsBeforeTheVoiceDid() {
        let utterance = Utterance(start: 10, samples: [Float](repeating: 0, count: 32_000), voiceOnset: 0.25)
        let heard = [RecognizedSegment(start: 0, end: 1, text: "Hello there.",
                                       words: [RecognizedWord(start: 0, end: 0.4, word: "Hello"), RecognizedWord(start: 0.5, end: 1, word: "there.")]),
                     RecognizedSegment(start: 1.2, end: 1.8, text: "Bye.")]
        let placed = utterance.placed(heard)
        #expect(placed[0].start == 0.25 && placed[0].end == 1)
        #expect(placed[0].words.map(\.start) == [0.25, 0.5])
        #expect(placed[1] == heard[1])
    }

    @Test func theWayTheStreamIsChunkedChangesNothing() {
        let audio = Self.silence(seconds: 0.7) + Self.voice(seconds: 1) + Self.silence(seconds: 0.9) + Self.voice(seconds: 0.8)
        var whole = VoiceActivityDetector()
        let expected = (whole.feed(audio) + whole.flush()).map { ($0.start, $0.samples.count) }
        var chunked = VoiceActivityDetector()
        var got: [Utterance] = []
        var offset = 0, size = 1
        while offset < audio.count {
            let end = min(audio.count, offset + size)
            got += chunked.feed(Array(audio[offset..<end]))
            offset = end
            size = size * 3 % 997 + 1
        }
        got += chunked.flush()
        #expect(got.map(\.start) == expected.map(\.0))
        #expect(got.map(\.samples.count) == expected.map(\.1))
    }

    @Test func aClickIsNotSpeech() {
        var detector = VoiceActivityDetector()
        let audio = Self.silence(seconds: 1) + Self.voice(seconds: 0.1) + Self.silence(seconds: 1)
        #expect((detector.feed(audio) + detector.flush()).isEmpty)
    }

    @Test func aSteadyNoiseBecomesTheFloor() {
        // Hiss at about -25 dBFS throughout, a voice 12 dB over it at 12 s: after the first ten
        // seconds the hiss is the floor and only the voice is cut.
        var detector = VoiceActivityDetector()
        let hiss = Self.noise(seconds: 16, amplitude: 0.1)
        var audio = hiss
        let voice = Self.voice(seconds: 1.5).map { $0 * 4 }
        for index in voice.indices { audio[12 * 16_000 + index] += voice[index] }
        let utterances = (detector.feed(audio) + detector.flush()).filter { $0.start > 10.5 }
        #expect(utterances.count == 1)
        #expect(abs((utterances.first?.start ?? 0) - 11.75) < 0.1)
    }

    @Test func aLongMonologueIsCutIntoBoundedUtterances() {
        var detector = VoiceActivityDetector()
        let audio = Self.voice(seconds: 62)
        let utterances = detector.feed(audio) + detector.flush()
        #expect(utterances.count == 3)
        #expect(utterances.allSatisfy { $0.duration <= 25.01 })
        // Nothing is lost at the cuts: each starts where the one before ended.
        for (before, after) in zip(utterances, utterances.dropFirst()) { #expect(abs(before.end - after.start) < 0.001) }
        #expect(abs((utterances.last?.end ?? 0) - 62) < 0.3)
    }
}
