/// How a live playlist does low-latency HLS (draft-pantos-hls-rfc8216bis §4.4.3.7, §4.4.3.8):
/// the part target and the server-control values that follow from it and the target duration.
public struct HLSLowLatency: Sendable, Equatable {
    /// The Part Target Duration, seconds: no part is longer.
    public var partTarget: Double
    /// The least `PART-HOLD-BACK`, seconds: a stream whose captions are written some segments
    /// after their video keeps low-latency players that far behind, so the captions are there
    /// before the picture is shown.
    public var minimumHoldBack: Double

    public init(partTarget: Double, minimumHoldBack: Double = 0) {
        self.partTarget = partTarget
        self.minimumHoldBack = minimumHoldBack
    }

    /// The longest part target Revue writes: Apple's players and hls.js are tuned for parts of
    /// a third to a half of a second.
    public static let longestPartTarget = 0.5
    /// The shortest: below it a part holds one or two frames and the playlist changes faster
    /// than a player can ask for it.
    public static let shortestPartTarget = 0.1

    /// The Part Target Duration as the playlist says it: to the millisecond, rounded up, so no
    /// part (cut to at most `partTarget`) is longer than it says (a third of a second is 0.334).
    public var declaredPartTarget: Double { ((partTarget * 1000) - 1e-6).rounded(.up) / 1000 }

    /// How far behind the live edge a player starts: three part targets (§4.4.3.8 asks for at
    /// least two; three rides out one late part), or `minimumHoldBack` if that is more.
    public var partHoldBack: Double { max(3 * declaredPartTarget, minimumHoldBack) }

    /// How old a segment must be to be left out of a delta update: six target durations, the
    /// least §4.4.3.8 allows.
    public static func skipBoundary(targetDuration: Int) -> Double { 6 * Double(targetDuration) }

    /// How many parts past the last one a blocking request may ask for before it is refused
    /// (§6.2.5.2's Advance Part Limit: three seconds' worth, at least three).
    public var advancePartLimit: Int { partTarget < 1 ? Int((3 / partTarget).rounded(.down)) : 3 }

    /// Parts are listed only for segments within this of the playlist's end (§6.2.2).
    public static func partWindow(targetDuration: Int) -> Double { 3 * Double(targetDuration) }
}
