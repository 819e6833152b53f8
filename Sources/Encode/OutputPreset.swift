import JobSpec
import Layout

/// The encoding settings of a quality (`config.quality`), documented in docs/ENCODING.md.
public struct OutputPreset: Sendable, Equatable {
    public typealias Quality = JobSpec.Quality

    public let quality: Quality
    public let size: Size
    public let framesPerSecond: Int
    /// Target video bitrate in bits per second.
    public let videoBitrate: Int
    public let audioBitrate: Int
    /// A keyframe every this many frames (2 s).
    public var gopLength: Int { framesPerSecond * 2 }

    public static let audioSampleRate = 48_000
    public static let audioChannels = 2
    /// x264's preset: the speed/compression balance.
    public static let x264Preset = "veryfast"
    /// Frames x264's lookahead (macroblock tree, VBV planning) sees ahead: 1 instead of
    /// veryfast's 10. Each frame in it is a 2.8 MB picture at 720p, and x264 holds the
    /// lookahead plus three more, so each frame less is 3 MB less of a job's memory; with one
    /// encoder thread the quality is what 10 gave with frame threads, within 0.1 dB PSNR, and
    /// what 2 gives within 0.01 dB PSNR where the bitrate is filled (docs/ENCODING.md has the
    /// PSNR and SSIM).
    public static let x264Lookahead = 1
    /// Motion search: superfast's diamond search and one-pass subpixel refinement instead of
    /// veryfast's hexagon and two. A third less x264 CPU on camera-like and noisy 720p clips,
    /// 0.02 to 0.04 dB less PSNR at the same bitrate (docs/ENCODING.md has the measurements).
    public static let x264MotionSearch = "me=dia:subme=1"
    /// The x264 options every Revue H.264 output uses, after the preset (`x264-params`): no
    /// keyframes of x264's own (`VideoEncoder` places them), closed GOPs, the lookahead and the
    /// motion search above.
    public static let x264Params = "scenecut=0:open-gop=0:rc-lookahead=\(x264Lookahead):\(x264MotionSearch)"

    /// The preset of a job's config.
    public static func preset(for config: RecordingConfig) -> OutputPreset {
        preset(config.quality, orientation: config.orientation)
    }

    /// The preset for a quality and orientation (portrait swaps width and height).
    public static func preset(_ quality: Quality, orientation: Orientation = .landscape) -> OutputPreset {
        let landscape: (Int, Int, Int)
        switch quality {
        case .low: landscape = (854, 480, 1_000_000)
        case .med: landscape = (1280, 720, 2_500_000)
        case .high: landscape = (1920, 1080, 4_500_000)
        }
        let size = orientation == .landscape
            ? Size(width: landscape.0, height: landscape.1) : Size(width: landscape.1, height: landscape.0)
        return OutputPreset(quality: quality, size: size, framesPerSecond: 30, videoBitrate: landscape.2, audioBitrate: 128_000)
    }

    /// The presets of a job's HLS ladder, best first (the composite's, `preset(for:)`, then
    /// each lower rung at its size and bit rate); one preset without `config.renditions`.
    public static func ladder(for config: RecordingConfig) -> [OutputPreset] {
        let best = preset(for: config)
        guard let renditions = config.renditions, renditions.count > 1 else { return [best] }
        return [best] + renditions.dropFirst().map { rendition in
            let size = config.orientation == .landscape
                ? Size(width: rendition.size.width, height: rendition.size.height) : Size(width: rendition.size.height, height: rendition.size.width)
            return OutputPreset(quality: best.quality, size: size, framesPerSecond: best.framesPerSecond, videoBitrate: rendition.videoBitrate,
                                audioBitrate: best.audioBitrate)
        }
    }
}
