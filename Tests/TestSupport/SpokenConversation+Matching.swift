import Foundation

/// Putting what a transcriber heard beside what was said: each heard line goes to the sentence
/// whose words it shares most of, so a test can ask whether a sentence was heard, by whom, and
/// with how many word errors.
extension SpokenConversation {
    /// The words two texts share, over the longer one's words (0 when either has none).
    public static func similarity(_ a: String, _ b: String) -> Double {
        let (x, y) = (words(of: a), words(of: b))
        return x.isEmpty || y.isEmpty ? 0 : Double(x.intersection(y).count) / Double(max(x.count, y.count))
    }

    /// `text`'s words, lower-cased, punctuation left out.
    public static func words(of text: String) -> Set<String> {
        Set(text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init))
    }

    /// `heard`, sorted to the lines said: each item goes to the line it is most like when that
    /// likeness passes `threshold`; the rest (noise, hallucinations) go nowhere.
    public static func sort<Heard>(_ heard: [Heard], text: (Heard) -> String, into lines: [Line], threshold: Double = 0.2) -> [[Heard]] {
        var sorted = Array(repeating: [Heard](), count: lines.count)
        for item in heard {
            let said = text(item)
            let best = lines.indices.max { similarity(said, lines[$0].text) < similarity(said, lines[$1].text) }
            if let best, similarity(said, lines[best].text) > threshold { sorted[best].append(item) }
        }
        return sorted
    }
}
