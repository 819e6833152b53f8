import Foundation
import Log
import Media
import Platform
import Synchronization

/// MediaPipe's selfie-segmentation model in a helper process Revue owns (`segment_helper.py`,
/// built into the binary): started by `init`, which waits until the model is loaded, fed one
/// picture at a time over its standard input, read over its standard output, stopped by `stop()`
/// or `deinit` (and if Revue itself dies, the helper reads end of file and exits).
///
/// It does not restart a helper that died: `segment` throws `.helperLost`, and the owner
/// (`VideoSDKBackgroundProcessor`) starts another off the camera's thread. Callers are
/// serialised by the lock: one picture at a time.
public final class PersonSegmenter: Sendable {
    public enum Model: String, Sendable, Equatable {
        /// `selfie_segmentation_landscape.tflite`, 256x144: for 16:9 cameras, the faster one.
        case landscape
        /// `selfie_segmentation.tflite`, 256x256.
        case general

        public var inputSize: (width: Int, height: Int) { self == .landscape ? (256, 144) : (256, 256) }
    }

    public let model: Model
    /// The engine, its version and the model's name, as the helper said when ready.
    public let description: String
    private let state: Mutex<Running?>

    private struct Running {
        let helper: HelperProcess
        var nextID = 1
    }

    /// Starts the helper and waits until it has loaded the model (about 0.7 s here).
    public init(runtime: SegmentationRuntime, model: Model = .landscape, startTimeout: Double = 30) throws(SegmentationError) {
        self.model = model
        let running = try Self.start(runtime: runtime, model: model, timeout: startTimeout)
        description = running.description
        state = Mutex(running.running)
    }

    /// The helper is asked to quit on a thread of its own: whoever lets go of the last
    /// reference (the main actor removing a video processor) does not wait for it.
    deinit {
        guard let running = state.withLock({ running -> Running? in
            defer { running = nil }
            return running
        }) else { return }
        running.helper.stopInBackground(farewell: Array("quit\n".utf8))
    }

    /// The helper's process id while it runs, for ops and tests.
    public var helperProcessID: pid_t? { state.withLock { $0?.helper.process.pid } }

    /// The person mask of a camera picture, at the model's size.
    /// - Throws: `.helperLost` when the helper exited, hung past `timeout` or broke the
    ///   protocol (it is stopped; start another); `.failed` when it answered with an error.
    public func segment(_ frame: VideoFrame, timeout: Double = 2) throws(SegmentationError) -> PersonMask {
        let size = model.inputSize
        let picture = ModelPicture(frame, width: size.width, height: size.height)
        var result: Result<PersonMask, SegmentationError> = .failure(SegmentationError(.helperLost, "the segmentation helper was stopped"))
        state.withLock { running in
            guard var current = running else { return }
            let id = current.nextID
            current.nextID += 1
            result = Self.exchange(picture, id: id, with: current, timeout: timeout)
            if case .failure(let error) = result, error.kind == .helperLost {
                current.helper.kill()
                running = nil
            } else {
                running = current
            }
        }
        return try result.get()
    }

    public func stop() {
        guard let running = state.withLock({ running -> Running? in
            defer { running = nil }
            return running
        }) else { return }
        running.helper.stop(farewell: Array("quit\n".utf8))
    }

    private static func exchange(_ picture: ModelPicture, id: Int, with running: Running,
                                 timeout: Double) -> Result<PersonMask, SegmentationError>
    {
        let helper = running.helper
        let now = HelperProcess.now
        guard let input = helper.process.standardInputPipe else { return .failure(SegmentationError(.helperLost, "the helper has no input")) }
        do {
            try input.write(Array("segment \(id) \(picture.width) \(picture.height)\n".utf8) + picture.rgb, timeout: timeout)
        } catch {
            return .failure(SegmentationError(.helperLost, "the segmentation helper stopped reading (\(helper.exitReason()))"))
        }
        let deadline = now() + timeout
        while true {
            let line: [UInt8]
            switch helper.reader.nextLine(timeout: max(0, deadline - now()), now: now) {
            case .bytes(let bytes): line = bytes
            case .closed: return .failure(SegmentationError(.helperLost, "the segmentation helper exited (\(helper.exitReason()))"))
            case .timedOut: return .failure(SegmentationError(.helperLost, "the segmentation helper did not answer within \(timeout) s"))
            case .tooLong: return .failure(SegmentationError(.helperLost, "the segmentation helper wrote a line without end"))
            }
            switch HelperAnswer.parse(line) {
            case .mask(let answered, let width, let height):
                let mask: [UInt8]
                switch helper.reader.next(bytes: width * height, timeout: max(0, deadline - now()), now: now) {
                case .bytes(let bytes): mask = bytes
                default: return .failure(SegmentationError(.helperLost, "the segmentation helper's mask ended early (\(helper.exitReason()))"))
                }
                // An answer to an earlier picture that timed out is read past.
                guard answered == id else { continue }
                guard width == picture.width, height == picture.height, let personMask = PersonMask(width: width, height: height, values: mask) else {
                    return .failure(SegmentationError(.helperLost, "the segmentation helper answered \(width)x\(height) for \(picture.width)x\(picture.height)"))
                }
                return .success(personMask)
            case .error(let answered, let message):
                guard answered == id else { continue }
                return .failure(SegmentationError(.failed, message))
            case .ready, .cannotStart, nil:
                return .failure(SegmentationError(.helperLost, "the segmentation helper wrote \(String(decoding: line.prefix(80), as: UTF8.self).debugDescription)"))
            }
        }
    }

    private static func start(runtime: SegmentationRuntime, model: Model, timeout: Double) throws(SegmentationError) -> (running: Running, description: String) {
        guard let script = EmbeddedResources.file("segment_helper.py") else {
            throw SegmentationError(.unavailable, "the segmentation helper script is missing from this build")
        }
        var environment = ProcessInfo.processInfo.environment
        // One thread: the model takes about 3 ms a picture, and the camera's encoder needs the other core.
        environment["OMP_NUM_THREADS"] = "1"
        environment["GLOG_minloglevel"] = "2"
        let helper: HelperProcess
        do {
            helper = try HelperProcess(runtime.python, ["-I", "-c", String(decoding: script, as: UTF8.self), model.rawValue],
                                       environment: environment, name: "segmentation")
        } catch {
            throw SegmentationError(.unavailable, "cannot start the segmentation helper \(runtime.python): \(error)")
        }
        let failure: String
        switch helper.reader.nextLine(timeout: timeout, now: HelperProcess.now) {
        case .bytes(let line):
            switch HelperAnswer.parse(line) {
            case .ready(let description): return (Running(helper: helper), description)
            case .cannotStart(let message): failure = "the segmentation helper cannot start: \(message)"
            default: failure = "the segmentation helper did not say it was ready"
            }
        case .closed: failure = "the segmentation helper exited at start (\(helper.exitReason()))"
        case .timedOut: failure = "the segmentation helper did not load its model within \(Int(timeout)) s"
        case .tooLong: failure = "the segmentation helper wrote a line without end at start"
        }
        helper.kill()
        throw SegmentationError(.unavailable, failure)
    }
}
