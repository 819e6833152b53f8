import Log
import Media
import Capture
import Synchronization

/// A camera whose pictures go through the room's video processor (`setVideoProcessor`) on their
/// way to the encoder. The processor is read for each picture, so setting or removing it applies
/// from the next one, without reopening the camera or restarting the encoder.
final class ProcessedCamera: CameraSource, Sendable {
    /// The processor a room holds, shared with the camera it sends.
    final class Slot: Sendable {
        private let processor = Mutex<(any VideoSDKVideoProcessor)?>(nil)

        var current: (any VideoSDKVideoProcessor)? {
            get { processor.withLock { $0 } }
            set { processor.withLock { $0 = newValue } }
        }
    }

    let source: any CameraSource
    private let slot: Slot
    /// Whether a picture of the wrong size was already logged (once: it would be every frame).
    private let warned = Atomic<Bool>(false)
    private let logger = Logger(label: "video-processor")

    init(source: any CameraSource, slot: Slot) {
        self.source = source
        self.slot = slot
    }

    var format: CameraFormat { source.format }

    func frame(_ index: Int) -> VideoFrame {
        let captured = source.frame(index)
        guard let processor = slot.current, let processed = processor.onFrameReceived(captured) else { return captured }
        guard processed.width == captured.width, processed.height == captured.height else {
            if !warned.exchange(true, ordering: .relaxed) {
                logger.warning("the video processor returned a picture of another size; the camera's picture is sent",
                               ["camera": .string("\(captured.width)x\(captured.height)"),
                                "processed": .string("\(processed.width)x\(processed.height)")])
            }
            return captured
        }
        return processed
    }
}
