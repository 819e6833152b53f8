import Fixture
import LiveTranscription
import Media
import MediaSource
import Speech
import Synchronization
import TestSupport
import Testing

/// The transcriber over a recorded room (the `speakers` fixture: Erin and Frank take turns),
/// with an engine that answers every utterance with one word, so what reaches the engine, and
/// from whom, is what is asserted.
@Suite struct LiveTranscriberTests {
    /// Answers each utterance with "word", and counts them.
    final class WordEngine: SpeechEngine {
        let heard = Mutex(0)
        var description: String { "one word each" }
        func transcribe(_ utterance: Utterance) throws(SpeechError) -> [RecognizedSegment] {
            heard.withLock { $0 += 1 }
            return [RecognizedSegment(start: 0, end: Double(utterance.samples.count) / Double(Utterance.sampleRate), text: "word")]
        }
        func stop() {}
    }

    /// A fixture whose participants in `encrypted` join end-to-end encrypted.
    final class EncryptedSource: MediaSource {
        let inner: FixtureSource
        let encrypted: Set<String>
        init(_ inner: FixtureSource, encrypted: Set<String>) {
            self.inner = inner
            self.encrypted = encrypted
        }
        var participants: [ParticipantDescription] {
            inner.participants.map { participant in
                var marked = participant
                marked.encrypted = encrypted.contains(participant.id)
                return marked
            }
        }
        var duration: Double? { inner.duration }
        func next(until deadline: Double) -> SourceItem { inner.next(until: deadline) }
        func send(_ feedback: Feedback) { inner.send(feedback) }
    }

    static func speakers(encrypted: Set<String>) throws -> [String] {
        let fixture = try Fixture(directory: TestFixtures.path("speakers"))
        let source = EncryptedSource(FixtureSource(FixtureReplay(fixture: fixture, pacing: .asFastAsPossible)), encrypted: encrypted)
        let transcriber = LiveTranscriber(engine: WordEngine())
        var lines: [Caption] = []
        transcriber.run(source, send: { lines.append($0) }, shouldStop: { false })
        return lines.map(\.participantID)
    }

    /// An encrypted participant the transcriber has no key for is not transcribed: their sealed
    /// audio never reaches the decoder, so the engine cannot hear words in its noise. The
    /// others are, as without encryption.
    @Test func anEncryptedParticipantWithoutAKeyIsNotTranscribed() throws {
        let clear = try Self.speakers(encrypted: [])
        #expect(clear.contains("erin") && clear.contains("frank"), "\(clear)")
        let sealed = try Self.speakers(encrypted: ["erin"])
        #expect(!sealed.contains("erin") && sealed.filter { $0 == "frank" }.count == clear.filter { $0 == "frank" }.count, "\(sealed)")
    }
}
