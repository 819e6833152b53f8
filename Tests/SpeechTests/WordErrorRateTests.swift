import Testing

@testable import Speech

@Suite struct WordErrorRateTests {
    @Test func punctuationAndCaseDoNotCount() {
        #expect(WordErrorRate(reference: "Send the report before noon.", hypothesis: "send the report, before Noon").errors == 0)
    }

    @Test func substitutionsInsertionsAndDeletionsEachCountOne() {
        let rate = WordErrorRate(reference: "the quick brown fox jumps", hypothesis: "the quick round fox jumps over")
        #expect(rate.referenceWords == 5)
        #expect(rate.errors == 2)
        #expect(WordErrorRate(reference: "a b c", hypothesis: "").errors == 3)
        #expect(WordErrorRate(reference: "", hypothesis: "").rate == 0)
    }

    @Test func pairsSumTheirErrorsOverTheirWords() {
        let rate = WordErrorRate(pairs: [("one two three four", "one two three four"), ("five six", "five seven")])
        #expect(rate.referenceWords == 6)
        #expect(rate.errors == 1)
    }
}

extension WordErrorRateTests {
    @Test func numbersAndContractionsAreNormalised() {
        #expect(WordErrorRate(reference: "Every twenty minutes, that is all. Let us go.", hypothesis: "every 20 minutes, that's all. let's go").errors == 0)
        #expect(WordErrorRate(reference: "twenty one", hypothesis: "21").errors == 0)
        #expect(WordErrorRate(reference: "in 2026", hypothesis: "in 2026").errors == 0)
    }
}
