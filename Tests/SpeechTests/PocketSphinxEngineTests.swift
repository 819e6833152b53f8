import Foundation
import TestSupport
import Testing

@testable import Speech

/// The fallback engine for real (Debian's ffmpeg and pocketsphinx-en-us): it hears something of
/// each sentence, far less than Whisper, and says so in docs/TRANSCRIPTION.md; silence is no text.
@Suite struct PocketSphinxEngineTests {
    /// All 32 sentences, as Whisper is measured (FileTranscriberTests): about 25 s of ffmpeg.
    @Test(.live) func itTranscribesTheConversationWorseThanWhisper() throws {
        let engine = try PocketSphinxEngine()
        let sentences = SpokenConversation.sentences
        var pairs: [(reference: String, hypothesis: String)] = []
        for (index, sentence) in sentences.enumerated() {
            let (tracks, _) = try SpokenConversation.layOut([(speaker: index % 2, text: sentence)], speakers: 2, gap: 0.5, lead: 0.3)
            let samples = tracks[index % 2]
            let heard = try engine.transcribe(Utterance(start: 0, samples: samples)).map(\.text).joined(separator: " ")
            pairs.append((sentence, heard))
        }
        let wer = WordErrorRate(pairs: pairs)
        print("pocketsphinx-en-us on \(sentences.count) espeak sentences: WER \(String(format: "%.1f", wer.rate * 100)) %")
        for pair in pairs.prefix(3) { print("  said: \(pair.reference)\n  heard: \(pair.hypothesis)") }
        #expect(pairs.filter { !$0.hypothesis.isEmpty }.count >= sentences.count / 2, "\(pairs)")
        #expect(wer.rate < 1.2)
        #expect(try engine.transcribe(Utterance(start: 0, samples: [Float](repeating: 0, count: 32_000))).isEmpty)
    }

    @Test func theLogLinesAreRead() {
        let log = "[Parsed_ametadata_2 @ 0x1] lavfi.asr.text=hello world\nframe=1\n[Parsed_ametadata_2 @ 0x1] lavfi.asr.text=again\n"
        #expect(PocketSphinxEngine.heard(in: log) == "hello world again")
        #expect(PocketSphinxEngine.heard(in: "nothing") == "")
    }
}
