import Testing

@testable import Segmentation

@Suite struct HelperAnswerTests {
    @Test func readsTheProtocolsLines() {
        #expect(HelperAnswer.parse(Array("mask 7 256 144".utf8)) == .mask(id: 7, width: 256, height: 144))
        #expect(HelperAnswer.parse(Array("error 3 the model failed".utf8)) == .error(id: 3, message: "the model failed"))
        #expect(HelperAnswer.parse(Array(#"{"type": "ready", "engine": "mediapipe", "version": "0.10.21", "model": "m"}"#.utf8))
            == .ready(description: "mediapipe 0.10.21, m"))
        #expect(HelperAnswer.parse(Array(#"{"type": "error", "message": "no numpy"}"#.utf8)) == .cannotStart(message: "no numpy"))
    }

    @Test func refusesWhatIsNotAnAnswer() {
        for line in ["", "mask", "mask 7", "mask 7 256", "mask -1 256 144", "mask 7 0 144", "mask 7 256 100000", "mask 7 256 144 9",
                     "mask x 256 144", "segment 7 256 144", "{\"type\": 3}", "{", "mask 99999999999999999999 1 1"] {
            #expect(HelperAnswer.parse(Array(line.utf8)) == nil, "\(line)")
        }
    }

    /// Random bytes, and random edits of good lines, never crash the parser, and a mask header
    /// it accepts always has a size within the helper's bounds.
    @Test func randomInputIsRefusedOrBounded() {
        var generator = SystemRandomNumberGenerator()
        let seeds = ["mask 7 256 144", "error 3 x", #"{"type": "ready"}"#]
        for round in 0..<5_000 {
            var line: [UInt8]
            if round % 2 == 0 {
                line = (0..<Int.random(in: 0..<40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            } else {
                line = Array(seeds[round % seeds.count].utf8)
                for _ in 0..<Int.random(in: 1...4, using: &generator) where !line.isEmpty {
                    line[Int.random(in: 0..<line.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
            }
            if case .mask(_, let width, let height) = HelperAnswer.parse(line) {
                #expect((1...HelperAnswer.maximumSide).contains(width) && (1...HelperAnswer.maximumSide).contains(height))
            }
        }
    }
}
