import CFFmpeg
import Media

/// Owns a libswscale context (sws_getContext / sws_freeContext): scales and converts pictures.
// @unchecked Sendable: owns a libswscale `SwsContext`, used by one thread at a time (its compositor's, decoder's or camera's)
public final class ScaleContext: @unchecked Sendable {
    private let context: OpaquePointer
    public let sourceWidth: Int
    public let sourceHeight: Int
    public let sourceFormat: AVPixelFormat
    public let destinationWidth: Int
    public let destinationHeight: Int

    /// A context that scales `source` pictures to `destination` size in YUV 4:2:0
    /// (`destinationFormat` YUVJ420P: full range, as JPEG wants).
    public init(sourceWidth: Int, sourceHeight: Int, sourceFormat: AVPixelFormat = AV_PIX_FMT_YUV420P,
                destinationWidth: Int, destinationHeight: Int, destinationFormat: AVPixelFormat = AV_PIX_FMT_YUV420P,
                flags: Int32 = revue_sws_bilinear()) throws(AVError)
    {
        guard let made = sws_getContext(Int32(sourceWidth), Int32(sourceHeight), sourceFormat, Int32(destinationWidth),
                                        Int32(destinationHeight), destinationFormat, flags, nil, nil, nil)
        else {
            throw AVError(code: revue_averror(EINVAL), function: "sws_getContext(\(sourceWidth)x\(sourceHeight) → \(destinationWidth)x\(destinationHeight))")
        }
        context = made
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.sourceFormat = sourceFormat
        self.destinationWidth = destinationWidth
        self.destinationHeight = destinationHeight
    }

    deinit {
        sws_freeContext(context)
    }

    public func matches(sourceWidth: Int, sourceHeight: Int, sourceFormat: AVPixelFormat) -> Bool {
        self.sourceWidth == sourceWidth && self.sourceHeight == sourceHeight && self.sourceFormat == sourceFormat
    }

    /// Scales planes given by pointers and strides into planes given the same way (sws_scale).
    /// The destination may be a window into a bigger picture.
    public func scale(source: [UnsafePointer<UInt8>?], sourceStrides: [Int32], destination: [UnsafeMutablePointer<UInt8>?],
                      destinationStrides: [Int32])
    {
        var sourcePlanes = source + [nil]
        var sourceLines = sourceStrides + [0]
        var destinationPlanes = destination + [nil]
        var destinationLines = destinationStrides + [0]
        sourcePlanes.withUnsafeMutableBufferPointer { sourcePointers in
            sourceLines.withUnsafeMutableBufferPointer { sourceStrideBuffer in
                destinationPlanes.withUnsafeMutableBufferPointer { destinationPointers in
                    destinationLines.withUnsafeMutableBufferPointer { destinationStrideBuffer in
                        _ = sws_scale(context, sourcePointers.baseAddress, sourceStrideBuffer.baseAddress, 0,
                                      Int32(sourceHeight), destinationPointers.baseAddress, destinationStrideBuffer.baseAddress)
                    }
                }
            }
        }
    }

    /// Converts a decoded frame into a packed 4:2:0 `VideoFrame` of the destination size.
    public func convert(_ frame: Frame, mediaTime: Double) throws(AVError) -> VideoFrame {
        var picture = VideoFrame(width: destinationWidth, height: destinationHeight, mediaTime: mediaTime)
        let chromaStride = Int32(picture.chromaWidth)
        picture.y.withUnsafeMutableBufferPointer { y in
            picture.u.withUnsafeMutableBufferPointer { u in
                picture.v.withUnsafeMutableBufferPointer { v in
                    scale(source: (0..<3).map { UnsafePointer(frame.data($0)) },
                          sourceStrides: (0..<3).map { Int32(frame.lineSize($0)) },
                          destination: [y.baseAddress, u.baseAddress, v.baseAddress],
                          destinationStrides: [Int32(destinationWidth), chromaStride, chromaStride])
                }
            }
        }
        return picture
    }
}
