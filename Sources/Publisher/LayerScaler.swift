import CFFmpeg
import LibAV
import Media
import Capture

/// Makes a simulcast layer's picture from the camera's: LibAV's `ScaleContext` (libswscale,
/// area averaging, which is what a downscale by 2 or 4 wants: every source pixel counts, so
/// the small layer does not shimmer). One per layer, made for one source size.
final class LayerScaler {
    let width: Int
    let height: Int
    private let context: ScaleContext
    /// libswscale may write a few bytes past the end of each row (its vector stores), so it
    /// scales into a picture with wider, aligned rows, which are then packed (as the
    /// compositor does).
    private var scratch: VideoFrame

    init(from source: CameraFormat, width: Int, height: Int) throws(AVError) {
        self.width = width
        self.height = height
        context = try ScaleContext(sourceWidth: source.width, sourceHeight: source.height, destinationWidth: width, destinationHeight: height,
                                   flags: revue_sws_area())
        scratch = VideoFrame(width: (width + 63) & ~31, height: height)
    }

    /// Whether this scaler was made for pictures of `format`.
    func fits(_ format: CameraFormat) -> Bool {
        context.matches(sourceWidth: format.width, sourceHeight: format.height, sourceFormat: AV_PIX_FMT_YUV420P)
    }

    /// The picture at the layer's size, with the same media time.
    func scale(_ picture: VideoFrame) -> VideoFrame {
        let width = width, height = height, context = context
        return scratch.withPlanarImage { out in
            picture.y.withUnsafeBufferPointer { y in
                picture.u.withUnsafeBufferPointer { u in
                    picture.v.withUnsafeBufferPointer { v in
                        context.scale(source: [y.baseAddress, u.baseAddress, v.baseAddress],
                                      sourceStrides: [Int32(picture.width), Int32(picture.chromaWidth), Int32(picture.chromaWidth)],
                                      destination: [out.y, out.u, out.v],
                                      destinationStrides: [Int32(out.yStride), Int32(out.uStride), Int32(out.vStride)])
                    }
                }
            }
            return VideoFrame(width: width, height: height, planes: (UnsafePointer(out.y), UnsafePointer(out.u), UnsafePointer(out.v)),
                              strides: (out.yStride, out.uStride, out.vStride), mediaTime: picture.mediaTime)
        }
    }
}
