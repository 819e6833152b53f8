import Foundation
import Media
@testable import RevueSDK
import Segmentation
import Synchronization
import Testing

/// What the virtual background does when segmentation cannot run: 3068, and every picture
/// blurred, never the camera as it is.
@Suite struct VideoSDKBackgroundProcessorTests {
    @Test func withoutSegmentationItSays3068AndSendsOnlyBlurredPictures() async throws {
        let processor = VideoSDKBackgroundProcessor(background: .blur, locate: { SegmentationRuntime(python: "/bin/false") })
        let deadline = Date().addingTimeInterval(20)
        while processor.failure == nil && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(processor.failure?.code == 3068, "\(String(describing: processor.failure))")
        #expect(processor.failure?.message.contains("blurred") == true)
        #expect(!processor.isSegmenting)

        var board = VideoFrame(width: 320, height: 180)
        for row in 0..<180 { for column in 0..<320 { board.y[row * 320 + column] = (row / 4 + column / 4) % 2 == 0 ? 40 : 200 } }
        let out = try #require(processor.onFrameReceived(board))
        #expect(out.y != board.y)
        #expect(out.y.allSatisfy { (100...140).contains($0) }, "blurred flat: \(out.y.min() ?? 0)...\(out.y.max() ?? 0)")

        let reported = ReportedErrors()
        processor.reportErrors { reported.add($0.code) }
        #expect(reported.codes == [3068], "a failure before the room listens is passed on when it does")
    }

    final class ReportedErrors: Sendable {
        private let list = Mutex<[Int]>([])
        func add(_ code: Int) { list.withLock { $0.append(code) } }
        var codes: [Int] { list.withLock { $0 } }
    }
}
