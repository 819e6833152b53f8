import Media
import Capture

/// The pictures a camera track makes (the seed's `videoTrack`; an `RTCVideoTrack` on iOS). On
/// Linux there is no view to add it to: an app reads frames from it for a preview or a check.
public final class LocalVideoTrack: Sendable {
    let source: any CameraSource

    init(source: any CameraSource) {
        self.source = source
    }

    public var width: Int { source.format.width }
    public var height: Int { source.format.height }
    public var frameRate: Int { source.format.framesPerSecond }

    /// Picture `index` (shown `index / frameRate` seconds after the start), I420.
    public func frame(_ index: Int) -> VideoFrame { source.frame(index) }
}
