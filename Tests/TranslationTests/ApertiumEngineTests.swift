import Foundation
import TestSupport
import Testing

@testable import Translation

/// Apertium from Debian, for real: its pairs found, the conversation's sentences translated into
/// Spanish and scored against translations a person wrote (docs/TRANSCRIPTION.md gives the
/// figures), and odd input answered or refused, never hung on.
@Suite struct ApertiumEngineTests {
    static func engine() throws -> ApertiumEngine {
        try #require(ApertiumEngine.discover(), "apertium is not installed: run scripts/bootstrap")
    }

    @Test func itTranslatesIntoTheLanguagesDebianHas() throws {
        let engine = try Self.engine()
        #expect(engine.languages == ["es", "ca", "gl", "eo"])
        #expect(try engine.translate("The weather was cold.", to: "es").contains("frío"))
        #expect(try engine.translate("The weather was cold.", to: "ca").contains("fred"))
        let refused = #expect(throws: TranslationError.self) { try engine.translate("Hello", to: "fr") }
        #expect(refused?.description.contains("no English to fr pair") == true)
    }

    /// BLEU (up to 4-grams, corpus level) and a word match (F1 of the words) against
    /// SpokenConversation.spanish: Apertium's rule-based Spanish, measured.
    @Test func theConversationInSpanishIsMeasured() throws {
        let engine = try Self.engine()
        let translated = try SpokenConversation.sentences.map { try engine.translate($0, to: "es") }
        let score = TranslationScore(hypotheses: translated, references: SpokenConversation.spanish)
        print("apertium en→es on \(translated.count) sentences: BLEU \(String(format: "%.1f", score.bleu * 100)), "
            + "word match F1 \(String(format: "%.1f", score.wordF1 * 100)) %")
        for (said, got) in zip(SpokenConversation.sentences, translated).prefix(3) { print("  \(said) → \(got)") }
        #expect(score.wordF1 >= 0.45, "\(score)")
        #expect(score.bleu >= 0.10, "\(score)")
    }

    /// Text no one would say still gets an answer or a reason, in bounded time.
    @Test func oddTextIsAnsweredOrRefused() throws {
        let engine = try Self.engine()
        var generator = SeededGenerator(seed: 4)
        let odd = ["", "   ", "\n\n", "<b>bold</b> & 'quotes' \"double\"", "😀 emoji 漢字", "-->", String(repeating: "word ", count: 400), "\u{0}nul"]
            + (0..<6).map { _ in String(decoding: (0..<40).map { _ in UInt8.random(in: 1...255, using: &generator) }, as: UTF8.self) }
        for text in odd {
            do {
                let translated = try engine.translate(text, to: "es")
                #expect(!translated.contains("\n"), "\(translated)")
            } catch {
                #expect(!error.description.isEmpty)
            }
        }
    }
}

/// Corpus BLEU (Papineni et al. 2002: n-grams to 4, brevity penalty, no smoothing) and the F1 of
/// the words, on lower-cased words with punctuation removed.
struct TranslationScore: CustomStringConvertible {
    var bleu: Double
    var wordF1: Double
    var description: String { "BLEU \(bleu), word F1 \(wordF1)" }

    init(hypotheses: [String], references: [String]) {
        func words(_ text: String) -> [String] { text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init) }
        var matches = [Int](repeating: 0, count: 4), totals = [Int](repeating: 0, count: 4)
        var hypothesisLength = 0, referenceLength = 0, common = 0
        for (hypothesis, reference) in zip(hypotheses, references) {
            let (h, r) = (words(hypothesis), words(reference))
            hypothesisLength += h.count
            referenceLength += r.count
            for n in 1...4 where h.count >= n {
                var counts: [ArraySlice<String>: Int] = [:]
                if r.count >= n { for i in 0...(r.count - n) { counts[r[i..<(i + n)], default: 0] += 1 } }
                for i in 0...(h.count - n) {
                    totals[n - 1] += 1
                    if let left = counts[h[i..<(i + n)]], left > 0 {
                        matches[n - 1] += 1
                        counts[h[i..<(i + n)]] = left - 1
                    }
                }
            }
            var pool = Dictionary(r.map { ($0, 1) }, uniquingKeysWith: +)
            for word in h where (pool[word] ?? 0) > 0 {
                common += 1
                pool[word]? -= 1
            }
        }
        let precisions = (0..<4).map { totals[$0] == 0 ? 0 : Double(matches[$0]) / Double(totals[$0]) }
        let brevity = hypothesisLength >= referenceLength ? 1 : exp(1 - Double(referenceLength) / Double(max(1, hypothesisLength)))
        bleu = precisions.contains(0) ? 0 : brevity * exp(precisions.map { log($0) }.reduce(0, +) / 4)
        let precision = Double(common) / Double(max(1, hypothesisLength)), recall = Double(common) / Double(max(1, referenceLength))
        wordF1 = precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall)
    }
}
