import Foundation
@testable import LiveTranscription
import Media
import Speech
import Testing

/// One speaker's audio cut into utterances on the session clock: an utterance starts where the
/// voice is in media time, however long the speaker was silent on the wire before it.
@Suite struct SpeakerStreamTests {
    /// `seconds` of 48 kHz mono from `start`: a 300 Hz tone (heard as voice) or near silence.
    /// `rate` is media seconds per second of audio: under 1, the media clock slews back.
    static func chunks(from start: Double, seconds: Double, voice: Bool, rate: Double = 1) -> [AudioChunk] {
        let perChunk = 960
        return (0..<Int(seconds * 50)).map { index in
            let first = Int((start * 48_000).rounded()) + index * perChunk
            let samples = (0..<perChunk).map { offset -> Float in
                let t = Double(first + offset) / 48_000
                return voice ? Float(0.3 * sin(2 * Double.pi * 300 * t)) : Float(0.0005 * sin(2 * Double.pi * 50 * t))
            }
            return AudioChunk(samples: samples, channels: 1, mediaTime: start + rate * Double(index * perChunk) / 48_000)
        }
    }

    static func feed(_ stream: inout SpeakerStream, _ chunks: [AudioChunk]) -> [Utterance] {
        chunks.flatMap { stream.add($0) }
    }

    /// A speaker whose packets stop mid-sentence for ten seconds (a frozen sender, a starved
    /// receiver) and then speak again: the second utterance starts at its media time, not five
    /// seconds early (only five seconds of the gap were fed as silence).
    @Test func aLongGapMidSentenceKeepsTheNextUtteranceOnTime() {
        var stream = SpeakerStream(participantID: "p", name: "Alice")
        var utterances = Self.feed(&stream, Self.chunks(from: 0, seconds: 2, voice: false))
        utterances += Self.feed(&stream, Self.chunks(from: 2, seconds: 1, voice: true))
        #expect(stream.isSpeaking)
        utterances += stream.advance(to: 13)
        utterances += Self.feed(&stream, Self.chunks(from: 13.5, seconds: 1, voice: true))
        utterances += Self.feed(&stream, Self.chunks(from: 14.5, seconds: 2, voice: false))
        utterances += stream.flush()
        let onsets = utterances.map { $0.start + $0.voiceOnset }
        print("measured: utterances' voice onsets \(onsets.map { String(format: "%.2f", $0) }) s (voice at 2.00 and 13.50)")
        #expect(onsets.count == 2)
        #expect(onsets.first.map { abs($0 - 2) < 0.2 } == true, "\(onsets)")
        #expect(onsets.last.map { abs($0 - 13.5) < 0.2 } == true, "\(onsets)")
    }

    /// The media clock slews while the speaker is quiet (`MediaClock` found a better delay
    /// estimate: each 20 ms chunk starts 19 ms, or 21 ms, after the one before, four seconds
    /// long) and then they speak: the utterance starts at the voice's media time. Feeding every
    /// sample as it came had put it 0.2 s late after a slew back (the captions of a live HLS
    /// stream were), and a slew forward of 1 ms a chunk was never filled, 0.2 s early.
    @Test(arguments: [0.95, 1.05]) func aSlewingMediaClockKeepsTheUtteranceOnTime(rate: Double) {
        var stream = SpeakerStream(participantID: "p", name: "Alice")
        let voice = 1 + 4 * rate
        var utterances = Self.feed(&stream, Self.chunks(from: 0, seconds: 1, voice: false))
        utterances += Self.feed(&stream, Self.chunks(from: 1, seconds: 4, voice: false, rate: rate))
        utterances += Self.feed(&stream, Self.chunks(from: voice, seconds: 1, voice: true))
        utterances += Self.feed(&stream, Self.chunks(from: voice + 1, seconds: 2, voice: false))
        utterances += stream.flush()
        let onsets = utterances.map { $0.start + $0.voiceOnset }
        print("measured: voice onset \(onsets.map { String(format: "%.3f", $0) }) s after a slew to \(rate)x (voice at \(voice))")
        #expect(onsets.count == 1)
        #expect(onsets.first.map { abs($0 - voice) < 0.03 } == true, "\(onsets)")
    }

    /// A speaker's audio held up for 0.4 s mid-sentence (a stall on the way, a starved receive
    /// thread): the transcriber fed silence for it meanwhile (`advance`), and then the held-up
    /// audio comes in a burst at its own media times. Every moment of the voice is in an
    /// utterance, at its time, as voice: none of it dropped as overlapping the silence fed.
    @Test func audioHeldUpMidSentenceIsKeptAtItsTime() {
        var stream = SpeakerStream(participantID: "p", name: "Alice")
        var utterances = Self.feed(&stream, Self.chunks(from: 0, seconds: 1, voice: false))
        utterances += Self.feed(&stream, Self.chunks(from: 1, seconds: 1, voice: true))
        utterances += stream.advance(to: 2.4)
        utterances += Self.feed(&stream, Self.chunks(from: 2, seconds: 1, voice: true))
        utterances += Self.feed(&stream, Self.chunks(from: 3, seconds: 2, voice: false))
        utterances += stream.flush()
        let voiceless = stride(from: 1.05, to: 2.95, by: 0.1).filter { time in
            !utterances.contains { utterance in
                let index = Int(((time - utterance.start) * 16_000).rounded())
                guard index >= 0, index + 160 <= utterance.samples.count else { return false }
                let level = utterance.samples[index..<(index + 160)].reduce(0) { $0 + $1 * $1 } / 160
                return level.squareRoot() > 0.1
            }
        }
        print("measured: \(utterances.count) utterances \(utterances.map { String(format: "%.2f-%.2f", $0.start, $0.end) }); voiceless moments \(voiceless)")
        #expect(voiceless.isEmpty, "moments of the voice not in any utterance as voice: \(voiceless)")
        // The utterance cut at the stall ends where its audio did, not with the silence fed after.
        #expect(utterances.first.map { $0.end < 2.05 } == true, "\(utterances.map { ($0.start, $0.end) })")
    }
}
