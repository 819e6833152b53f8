import Capture
import Foundation
import Log
import Media
import Segmentation
import Synchronization

/// The virtual background (seed 004, "Video Processor"): the person in each camera picture over
/// an image, or over the camera's own picture blurred. Set it with `Room.setVideoProcessor`.
///
/// The person is found by MediaPipe's selfie-segmentation model (`selfie_segmentation_landscape`,
/// 256x144) in a helper process (`PersonSegmenter`; `scripts/bootstrap` installs it); the mask is
/// scaled up, feathered, and the camera blended over the background (`BackgroundBlender`). At
/// 640x360 it costs about 5 ms of CPU a picture over an image, 6 ms over a blur (`bench/virtual-background`).
///
/// It hides the room from the first picture: until the model has loaded (under a second), while
/// a helper that died is restarted, and for good if segmentation cannot run, the whole picture
/// is sent blurred, never the camera as it is. Failures reach the room's `onError`: 3068
/// (`ERROR_ACTION_NOT_SUPPORTED`) when segmentation is not installed or its helper keeps dying,
/// 3073 (`ERROR_INVALID_PARAMETER`) when the background image cannot be read.
///
/// Thread-safe: the publisher calls `onFrameReceived` on its thread; the helper is started and
/// the image read on threads of their own, so the camera never waits for either to start (a
/// picture does wait for its mask: about 3 ms, at most 2 s before a hung helper is replaced).
public final class VideoSDKBackgroundProcessor: VideoSDKVideoProcessor, Sendable {
    public enum Background: Sendable, Equatable {
        /// An image file (`file:`) or an `http(s):` URL, in a format Revue's FFmpeg reads (JPEG,
        /// PNG, WebP or GIF), fitted to the camera as a cover photo is.
        case image(URL)
        /// The camera's own picture, blurred.
        case blur
    }

    public let background: Background
    /// How many times a helper that died is replaced before the processor gives up (3068).
    public static let maximumRestarts = 5
    private let state = Mutex(State())
    private let logger = Logger(label: "virtual-background")
    private let locate: @Sendable () throws(SegmentationError) -> SegmentationRuntime

    private struct State {
        var segmenter: PersonSegmenter?
        var starting = true
        var restarts = 0
        /// Why the processor sends only blurred pictures for good.
        var failure: VideoSDKError?
        var image: VideoFrame?
        var imageFailure: VideoSDKError?
        /// The image at the camera's size, made once per size.
        var fitted: VideoFrame?
        var onError: (@Sendable (VideoSDKError) -> Void)?
        var reported: [Int] = []
        /// The camera's masks steadied over time (`MaskSmoother`).
        var smoother = MaskSmoother()
    }

    /// The seed's initialiser: `backgroundSource` is the image to put behind the person.
    public convenience init(backgroundSource: URL) {
        self.init(background: .image(backgroundSource))
    }

    public convenience init(background: Background) {
        self.init(background: background, locate: { () throws(SegmentationError) in try SegmentationRuntime.locate() })
    }

    /// `locate` finds the helper's venv (tests point it at one that cannot start).
    init(background: Background, locate: @escaping @Sendable () throws(SegmentationError) -> SegmentationRuntime) {
        self.background = background
        self.locate = locate
        // Each on a thread of its own, so a slow image does not hold segmentation up, and
        // neither holds the processor: one let go of meanwhile is freed when they finish.
        Thread.detachNewThread { [weak self] in self?.startSegmenter() }
        if case .image(let url) = background {
            Thread.detachNewThread { [weak self] in
                let loaded = Self.loadImage(url)
                self?.keep(loaded, from: url)
            }
        }
    }

    /// Whether the model is loaded and pictures are being segmented.
    public var isSegmenting: Bool { state.withLock { $0.segmenter != nil } }

    /// Why the processor sends blurred pictures for good, if it does.
    public var failure: VideoSDKError? { state.withLock { $0.failure ?? $0.imageFailure } }

    public func onFrameReceived(_ frame: VideoFrame) -> VideoFrame? {
        let (segmenter, fitted) = state.withLock { state -> (PersonSegmenter?, VideoFrame?) in
            if let image = state.image, state.fitted?.width != frame.width || state.fitted?.height != frame.height {
                state.fitted = CoverFit.fit(image, width: frame.width, height: frame.height)
            }
            return (state.segmenter, state.fitted)
        }
        guard let segmenter else { return BlurredPicture.of(frame) }
        let mask: PersonMask
        do {
            let raw = try segmenter.segment(frame)
            mask = state.withLock { $0.smoother.smooth(raw) }
        } catch {
            lost(segmenter, error)
            return BlurredPicture.of(frame)
        }
        let behind: VideoFrame
        switch background {
        case .blur: behind = BlurredPicture.of(frame)
        case .image: behind = fitted ?? BlurredPicture.of(frame)
        }
        return BackgroundBlender.blend(frame, over: behind, mask: mask)
    }

    /// Where failures go (`Room.setVideoProcessor` points it at `onError`); one that happened
    /// before is passed on at once.
    func reportErrors(to handler: @escaping @Sendable (VideoSDKError) -> Void) {
        let pending = state.withLock { state -> [VideoSDKError] in
            state.onError = handler
            state.reported = []
            return [state.failure, state.imageFailure].compactMap { $0 }
        }
        pending.forEach(report)
    }

    private func startSegmenter() {
        let outcome: Result<PersonSegmenter, SegmentationError>
        do {
            outcome = .success(try PersonSegmenter(runtime: try locate()))
        } catch {
            outcome = .failure(error)
        }
        switch outcome {
        case .success(let segmenter):
            logger.info("person segmentation ready", ["engine": .string(segmenter.description)])
            let stale = state.withLock { state -> PersonSegmenter? in
                state.starting = false
                guard state.failure == nil else { return segmenter }
                state.segmenter = segmenter
                return nil
            }
            stale?.stop()
        case .failure(let error):
            fail(VideoSDKError.ERROR_ACTION_NOT_SUPPORTED.with("the virtual background cannot run: \(error.description); pictures are sent blurred"))
        }
    }

    /// A helper that died or hung: pictures go blurred while another starts, up to `maximumRestarts`.
    private func lost(_ segmenter: PersonSegmenter, _ error: SegmentationError) {
        guard error.kind == .helperLost else {
            logger.warning("person segmentation failed on a picture", ["error": .string(error.description)])
            return
        }
        let restart = state.withLock { state -> Bool in
            guard state.segmenter === segmenter else { return false }
            state.segmenter = nil
            state.smoother.reset()
            guard state.restarts < Self.maximumRestarts else { return false }
            state.restarts += 1
            state.starting = true
            return true
        }
        segmenter.stop()
        if restart {
            logger.warning("restarting the segmentation helper", ["why": .string(error.description)])
            Thread.detachNewThread { [weak self] in self?.startSegmenter() }
        } else if state.withLock({ !$0.starting && $0.segmenter == nil }) {
            fail(VideoSDKError.ERROR_ACTION_NOT_SUPPORTED.with("the segmentation helper died \(Self.maximumRestarts + 1) times (\(error.description)); "
                + "pictures are sent blurred"))
        }
    }

    /// The background image at its own size, scaled down to at most 1920x1080 first (a photo
    /// of any size is fitted to the camera once, not kept whole).
    private static func loadImage(_ url: URL) -> Result<VideoFrame, MediaFileCamera.OpenError> {
        let path = url.isFileURL ? url.path : url.absoluteString
        do throws(MediaFileCamera.OpenError) {
            let image = try MediaFileCamera(path: path).frame(0)
            guard image.width > 1920 || image.height > 1080 else { return .success(image) }
            let scale = min(1920 / Double(image.width), 1080 / Double(image.height))
            return .success(CoverFit.fit(image, width: max(2, Int(Double(image.width) * scale) & ~1),
                                         height: max(2, Int(Double(image.height) * scale) & ~1)))
        } catch {
            return .failure(error)
        }
    }

    private func keep(_ loaded: Result<VideoFrame, MediaFileCamera.OpenError>, from url: URL) {
        let path = url.isFileURL ? url.path : url.absoluteString
        switch loaded {
        case .success(let image):
            state.withLock { $0.image = image }
            logger.info("background image read", ["source": .string(path), "size": .string("\(image.width)x\(image.height)")])
        case .failure(let error):
            let failure = VideoSDKError.ERROR_INVALID_PARAMETER.with("backgroundSource \(path) cannot be read (\(error.description)); "
                + "the camera's picture is blurred instead")
            state.withLock { $0.imageFailure = failure }
            report(failure)
        }
    }

    private func fail(_ error: VideoSDKError) {
        let stale = state.withLock { state -> PersonSegmenter? in
            state.failure = error
            state.starting = false
            defer { state.segmenter = nil }
            return state.segmenter
        }
        stale?.stop()
        logger.error("virtual background off", ["why": .string(error.message)])
        report(error)
    }

    /// Each failure once per handler.
    private func report(_ error: VideoSDKError) {
        let handler = state.withLock { state -> (@Sendable (VideoSDKError) -> Void)? in
            guard !state.reported.contains(error.code) else { return nil }
            state.reported.append(error.code)
            return state.onError
        }
        handler?(error)
    }
}
