import Ingest
import Media

/// Decodes one video track's frames, whatever its codec, and keeps count.
///
/// After a frame fails to decode, frames are skipped until the next keyframe: the jitter
/// buffer already guarantees no frame arrives with a missing reference, and this covers a frame
/// that arrived whole but was damaged at the source.
public final class VideoTrackDecoder {
    private enum Backend {
        case vp8(VP8Decoder)
        case h264(H264Decoder)
    }

    private let backend: Backend
    /// A frame failed to decode: frames are skipped until the next keyframe, which the caller should ask for.
    public private(set) var needsKeyframe = false
    public private(set) var statistics = VideoDecoderStatistics()

    public init(codec: TrackInfo.Codec) throws(DecodeError) {
        switch codec {
        case .vp8: backend = .vp8(try VP8Decoder())
        case .h264: backend = .h264(try H264Decoder())
        case .opus: throw DecodeError(codec: "Opus", message: "not a video codec")
        }
    }

    /// Decodes a frame into zero or more pictures (H.264 may hold one back).
    public func decode(_ frame: EncodedFrame) -> [VideoFrame] {
        if needsKeyframe && !frame.isKeyframe {
            statistics.framesSkipped += 1
            return []
        }
        do {
            let pictures: [VideoFrame]
            switch backend {
            case .vp8(let decoder): pictures = try decoder.decode(frame.data, mediaTime: frame.mediaTime).map { [$0] } ?? []
            case .h264(let decoder): pictures = try decoder.decode(frame.data, mediaTime: frame.mediaTime)
            }
            needsKeyframe = false
            for picture in pictures {
                statistics.framesDecoded += 1
                let resolution = "\(picture.width)x\(picture.height)"
                if statistics.resolutions.last != resolution { statistics.resolutions.append(resolution) }
                statistics.firstMediaTime = min(statistics.firstMediaTime ?? picture.mediaTime, picture.mediaTime)
                statistics.lastMediaTime = max(statistics.lastMediaTime ?? picture.mediaTime, picture.mediaTime)
            }
            return pictures
        } catch {
            statistics.decodeErrors += 1
            statistics.lastError = error.description
            needsKeyframe = true
            return []
        }
    }
}

/// What a video decoder counted.
public struct VideoDecoderStatistics: Sendable, Equatable {
    public var framesDecoded = 0
    public var decodeErrors = 0
    /// Frames skipped while waiting for a keyframe after a decode error.
    public var framesSkipped = 0
    /// Each size the pictures had, in the order they appeared ("640x360").
    public var resolutions: [String] = []
    public var firstMediaTime: Double?
    public var lastMediaTime: Double?
    public var lastError: String?

    public init() {}
}
