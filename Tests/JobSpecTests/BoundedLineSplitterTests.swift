import JobSpec
import Testing

/// Cutting a pipe's bytes into lines of bounded length (both ends of a job's pipes).
@Suite struct BoundedLineSplitterTests {
    /// Random bytes, newlines among them: never a crash, never a line longer than the limit.
    @Test func randomBytesSplitIntoBoundedLines() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var splitter = BoundedLineSplitter(maximumLength: 64)
            var longest = 0, tooLong = 0
            for _ in 0..<20 {
                let count = Int.random(in: 0...200, using: &generator)
                let bytes = (0..<count).map { _ in Bool.random(using: &generator) && Bool.random(using: &generator) ? UInt8(ascii: "\n") : UInt8.random(in: 0...255, using: &generator) }
                for piece in splitter.add(bytes) {
                    switch piece {
                    case .line(let line): longest = max(longest, line.count)
                    case .tooLong: tooLong += 1
                    }
                }
            }
            #expect(longest <= 64)
        }
        var splitter = BoundedLineSplitter(maximumLength: 4)
        #expect(splitter.add(Array("abcdefgh\nab\n".utf8)) == [.tooLong, .line(Array("ab".utf8))])
    }
}
