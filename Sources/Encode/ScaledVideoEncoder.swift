import CFFmpeg
import Layout
import LibAV
import Media

/// A lower rung of an HLS ladder: the composite's picture scaled (libswscale, area averaging:
/// every source pixel counts, so a downscaled picture does not shimmer) straight into an
/// encoder's own input frame and encoded again. Its GOP is the composite encoder's and the
/// pipeline forces the same keyframes on both, so every rendition's segments start at the same
/// pictures. Used by one thread (the pipeline's).
public final class ScaledVideoEncoder {
    public let encoder: VideoEncoder
    private let scaler: ScaleContext

    public init(preset: OutputPreset, from source: Size) throws(AVError) {
        encoder = try VideoEncoder(preset: preset)
        scaler = try ScaleContext(sourceWidth: source.width, sourceHeight: source.height, destinationWidth: preset.size.width,
                                  destinationHeight: preset.size.height, flags: revue_sws_area())
    }

    /// Leaves the next picture out, as the composite's encoder does (`VideoEncoder.skip`).
    public func skip() {
        encoder.skip()
    }

    /// Encodes `picture` (the composite, as its encoder got it) at this rung's size; a keyframe
    /// when `forceKeyframe`.
    public func encode(_ picture: PlanarImage, forceKeyframe: Bool) throws(AVError) -> [EncodedPacket] {
        let scaler = scaler
        // The encoder's frame rows are aligned with room to spare, so libswscale's vector stores
        // past a row's end land in its padding.
        return try encoder.encode(forceKeyframe: forceKeyframe) { target in
            scaler.scale(source: [UnsafePointer(picture.y), UnsafePointer(picture.u), UnsafePointer(picture.v)],
                         sourceStrides: [Int32(picture.yStride), Int32(picture.uStride), Int32(picture.vStride)],
                         destination: [target.y, target.u, target.v],
                         destinationStrides: [Int32(target.yStride), Int32(target.uStride), Int32(target.vStride)])
        }
    }
}
