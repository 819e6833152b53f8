/// One direction of the network as the pre-call test measured it against the room server.
public struct PreCallLinkQuality: Sendable, Equatable {
    /// 1 (unusable) to 5 (excellent): the lower of the bitrate's and the round trip's scores.
    public var quality: Int
    /// Bits a second moved so far.
    public var bitrate: Int
    /// The median round trip to the server, in milliseconds.
    public var roundTripTime: Double

    public init(quality: Int, bitrate: Int, roundTripTime: Double) {
        self.quality = quality
        self.bitrate = bitrate
        self.roundTripTime = roundTripTime
    }

    /// The score of a measurement: 5 at 2.5 Mb/s and under 100 ms (a 720p call), down to 1
    /// under 300 kb/s or over 500 ms (not even audio and a small picture).
    static func measured(bitrate: Int, roundTripTime: Double) -> PreCallLinkQuality {
        let byRate = bitrate >= 2_500_000 ? 5 : bitrate >= 1_500_000 ? 4 : bitrate >= 800_000 ? 3 : bitrate >= 300_000 ? 2 : 1
        let byTime = roundTripTime < 100 ? 5 : roundTripTime < 200 ? 4 : roundTripTime < 300 ? 3 : roundTripTime < 500 ? 2 : 1
        return PreCallLinkQuality(quality: min(byRate, byTime), bitrate: bitrate, roundTripTime: roundTripTime)
    }
}
