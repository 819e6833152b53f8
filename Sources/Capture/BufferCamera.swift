import Media
import Synchronization

/// A camera an app feeds with its own pictures (the SDK's buffer tracks, seed 002's
/// `createBufferTrack`): a bot that draws, a pipeline that renders, a test. The publisher asks
/// for pictures by frame number at the track's rate; it gets the latest picture pushed (the
/// same one again when the app is slower than the rate, black before the first).
public final class BufferCamera: CameraSource, Sendable {
    /// Why a picture was refused.
    public struct SizeMismatch: Error, Sendable, CustomStringConvertible {
        public let expected: CameraFormat
        public let width: Int
        public let height: Int
        public var description: String { "a \(width)x\(height) picture pushed to a \(expected.width)x\(expected.height) buffer track" }
    }

    public let format: CameraFormat
    private let latest: Mutex<VideoFrame>
    private let pushed = Atomic<Int>(0)

    public init(format: CameraFormat) {
        self.format = format
        latest = Mutex(VideoFrame(width: format.width, height: format.height))
    }

    /// Sends `picture` from the next frame on. It must be the track's size: the encoder is set
    /// for it.
    public func push(_ picture: VideoFrame) throws(SizeMismatch) {
        guard picture.width == format.width, picture.height == format.height else {
            throw SizeMismatch(expected: format, width: picture.width, height: picture.height)
        }
        latest.withLock { $0 = picture }
        pushed.add(1, ordering: .relaxed)
    }

    /// Pictures pushed so far.
    public var picturesPushed: Int { pushed.load(ordering: .relaxed) }

    public func frame(_ index: Int) -> VideoFrame {
        var picture = latest.withLock { $0 }
        picture.mediaTime = Double(index) / Double(format.framesPerSecond)
        return picture
    }
}
