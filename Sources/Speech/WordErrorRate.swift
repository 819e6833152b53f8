/// Word error rate: the word-level edit distance from what was said to what was heard, over the
/// number of words said. Both sides are normalised first, as speech benchmarks do (Whisper's
/// English normaliser): lower case, no punctuation ("Noon." is "noon"), numbers up to 99 as
/// words ("20" is "twenty"), ordinals to the tenth ("1st" is "first") and common contractions spelled out ("that's" is "that is").
public struct WordErrorRate: Sendable, Equatable {
    public let referenceWords: Int
    public let errors: Int

    public var rate: Double { referenceWords == 0 ? (errors == 0 ? 0 : 1) : Double(errors) / Double(referenceWords) }

    public init(reference: String, hypothesis: String) {
        let said = Self.words(reference), heard = Self.words(hypothesis)
        referenceWords = said.count
        // Levenshtein over words, one row at a time.
        var previous = Array(0...heard.count)
        for (i, word) in said.enumerated() {
            var row = [i + 1] + Array(repeating: 0, count: heard.count)
            for (j, candidate) in heard.enumerated() {
                row[j + 1] = min(previous[j + 1] + 1, row[j] + 1, previous[j] + (word == candidate ? 0 : 1))
            }
            previous = row
        }
        errors = previous[heard.count]
    }

    /// Several sentence pairs at once: total errors over total words.
    public init(pairs: [(reference: String, hypothesis: String)]) {
        let each = pairs.map { WordErrorRate(reference: $0.reference, hypothesis: $0.hypothesis) }
        referenceWords = each.reduce(0) { $0 + $1.referenceWords }
        errors = each.reduce(0) { $0 + $1.errors }
    }

    static func words(_ text: String) -> [String] {
        text.lowercased().replacingOccurrences(of: "\u{2019}", with: "'").split(whereSeparator: { $0.isWhitespace || $0 == "-" })
            .map { $0.filter { $0.isLetter || $0.isNumber || $0 == "'" } }
            .filter { !$0.isEmpty }
            .flatMap { word -> [String] in
                if let expanded = contractions[word] { return expanded }
                if let number = Int(word), let spelled = spell(number) { return spelled }
                if let ordinal = ordinals[word] { return [ordinal] }
                return [word]
            }
    }

    private static let contractions: [String: [String]] = [
        "that's": ["that", "is"], "it's": ["it", "is"], "let's": ["let", "us"], "i'm": ["i", "am"], "we're": ["we", "are"],
        "you're": ["you", "are"], "they're": ["they", "are"], "don't": ["do", "not"], "can't": ["can", "not"],
        "won't": ["will", "not"], "isn't": ["is", "not"], "i'll": ["i", "will"], "we'll": ["we", "will"], "i've": ["i", "have"],
        "what's": ["what", "is"], "there's": ["there", "is"],
    ]

    private static let ordinals = ["1st": "first", "2nd": "second", "3rd": "third", "4th": "fourth", "5th": "fifth", "6th": "sixth",
                                   "7th": "seventh", "8th": "eighth", "9th": "ninth", "10th": "tenth"]

    private static let units = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                                "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
    private static let tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]

    /// 0 to 99 in words ("21" is "twenty one"); nil for other numbers, which stay digits.
    private static func spell(_ number: Int) -> [String]? {
        guard (0..<100).contains(number) else { return nil }
        if number < 20 { return [units[number]] }
        return number % 10 == 0 ? [tens[number / 10]] : [tens[number / 10], units[number % 10]]
    }
}
