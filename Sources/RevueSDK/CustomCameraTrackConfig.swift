import Publisher

/// A camera track's size and rate, with its bitrate for each `BitrateMode`: the 13 rows of the
/// custom-tracks seed's table, kept here as one table so the table and the code cannot drift.
/// The names are the seed's (`h720p_w1280p` is 1280x720).
public enum CustomCameraTrackConfig: String, Sendable, Hashable, CaseIterable {
    case h90p_w160p
    case h180p_w320p
    case h360p_w640p
    case h540p_w960p
    case h720p_w1280p
    case h1080p_w1920p
    case h120p_w160p
    case h180p_w240p
    case h240p_w320p
    case h360p_w480p
    case h480p_w640p
    case h720p_w960p
    case h1080p_w1440p

    /// One row: width, height, frames a second, and kbps for optimized, balanced, high quality.
    private var row: (width: Int, height: Int, fps: Int, kbps: (optimized: Int, balanced: Int, high: Int)) {
        switch self {
        case .h90p_w160p: (160, 90, 30, (40, 90, 120))
        case .h180p_w320p: (320, 180, 30, (60, 120, 180))
        case .h360p_w640p: (640, 360, 30, (300, 450, 600))
        case .h540p_w960p: (960, 540, 30, (600, 900, 1200))
        case .h720p_w1280p: (1280, 720, 30, (1000, 1500, 2000))
        case .h1080p_w1920p: (1920, 1080, 30, (1500, 2200, 2700))
        case .h120p_w160p: (160, 120, 30, (40, 90, 120))
        case .h180p_w240p: (240, 180, 30, (90, 120, 180))
        case .h240p_w320p: (320, 240, 30, (100, 150, 200))
        case .h360p_w480p: (480, 360, 30, (270, 360, 540))
        case .h480p_w640p: (640, 480, 30, (350, 600, 900))
        case .h720p_w960p: (960, 720, 30, (900, 1200, 1600))
        case .h1080p_w1440p: (1440, 1080, 30, (1500, 2000, 2700))
        }
    }

    public var width: Int { row.width }
    public var height: Int { row.height }
    public var frameRate: Int { row.fps }

    /// The bitrate in bits a second for `mode` (the table's kbps × 1000).
    public func bitrate(for mode: BitrateMode) -> Int {
        let kbps = row.kbps
        switch mode {
        case .BANDWIDTH_OPTIMIZED: return kbps.optimized * 1000
        case .BALANCED: return kbps.balanced * 1000
        case .HIGH_QUALITY: return kbps.high * 1000
        }
    }

    /// The simulcast layers a `multiStream` track of this config sends, lowest first: `count`
    /// (2 or 3) of full, 1/2 and 1/4 of the config's size. A layer's bitrate is that of the
    /// table's row of the layer's size in the same mode (h720p_w1280p BALANCED: 1280x720 at
    /// 1500 kb/s, 640x360 at 450, 320x180 at 120); a size the table has no row for gets the
    /// config's rate in proportion to its pixels (a quarter at 1/2, a sixteenth at 1/4).
    func simulcastLayers(_ count: Int, mode: BitrateMode) -> [SimulcastEncoding] {
        let count = max(1, min(3, count))
        let rids = SimulcastEncoding.rids(count: count)
        return (0..<count).map { index in
            let scale = 1 << (count - 1 - index)
            let width = self.width / scale, height = self.height / scale
            let row = CustomCameraTrackConfig.allCases.first { $0.width == width && $0.height == height }
            let bitrate = row?.bitrate(for: mode) ?? bitrate(for: mode) / (scale * scale)
            return SimulcastEncoding(rid: rids[index], scaleDown: scale, bitrate: bitrate)
        }
    }
}
