@testable import SFU
import Testing

/// The sequence mapping alone, table-driven. Each step is an input sequence number and whether
/// it is dropped (a padding-only packet); each expected output is the offset from the first
/// output, or nil when nothing goes out.
@Suite struct SequenceRewriterTests {
    enum Step {
        case forward(Int64)
        case drop(Int64)
        case sync(Int64)
    }

    static let cases: [(name: String, steps: [Step], outputs: [Int64?])] = [
        ("in order", [.sync(10), .forward(10), .forward(11), .forward(12)], [0, 1, 2]),
        ("reordered", [.sync(10), .forward(10), .forward(12), .forward(11)], [0, 2, 1]),
        ("before the sync point", [.sync(10), .forward(10), .forward(9)], [0, nil]),
        ("dropped newest", [.sync(10), .forward(10), .drop(11), .forward(12)], [0, nil, 1]),
        ("late drop fills its slot", [.sync(10), .forward(10), .forward(12), .drop(11)], [0, 2, 1]),
        ("missing before a drop keeps its slot", [.sync(10), .forward(10), .drop(12), .forward(13), .forward(11)], [0, nil, 2, 1]),
        ("resync continues", [.sync(10), .forward(10), .forward(11), .sync(500), .forward(500), .forward(501)], [0, 1, 2, 3]),
        ("resync backwards", [.sync(10), .forward(10), .sync(3), .forward(3), .forward(4)], [0, 1, 2]),
    ]

    @Test(arguments: cases)
    func mapping(name: String, steps: [Step], outputs: [Int64?]) {
        var rewriter = SequenceRewriter(firstOutput: 65_530)
        var results: [Int64?] = []
        var first: Int64?
        for step in steps {
            switch step {
            case .sync(let input):
                rewriter.sync(input: input)
            case .forward(let input):
                let output = rewriter.map(input: input)
                if first == nil { first = output }
                results.append(output.map { $0 - (first ?? 0) })
            case .drop(let input):
                if rewriter.drop(input: input) {
                    results.append(nil)
                } else {
                    results.append(rewriter.map(input: input).map { $0 - (first ?? 0) })
                }
            }
        }
        #expect(results == outputs, "\(name)")
    }

    @Test func manyDropsForgetTheOldestSlots() {
        var rewriter = SequenceRewriter(firstOutput: 0)
        rewriter.sync(input: 0)
        _ = rewriter.map(input: 0)
        // Every other packet dropped, more than the history holds.
        for input in stride(from: Int64(2), through: 200, by: 2) {
            let dropped = rewriter.drop(input: input)
            let next = rewriter.map(input: input + 1)
            #expect(dropped)
            #expect(next != nil)
        }
        // A very late packet from before the remembered drops cannot be placed safely.
        let veryLate = rewriter.map(input: 1)
        let late = rewriter.map(input: 199)
        #expect(veryLate == nil)
        #expect(late != nil)
    }

    @Test func firstOutputIsTheGivenNumber() {
        var rewriter = SequenceRewriter(firstOutput: 0xFFFF)
        rewriter.sync(input: 123_456)
        let first = rewriter.map(input: 123_456).map { UInt16(truncatingIfNeeded: $0) }
        let second = rewriter.map(input: 123_457).map { UInt16(truncatingIfNeeded: $0) }
        #expect(first == 0xFFFF)
        #expect(second == 0)
    }
}
