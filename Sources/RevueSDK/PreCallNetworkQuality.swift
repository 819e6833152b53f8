/// The network to the room server, both ways (`runPreCallTest`'s `onStatsChange` and result).
public struct PreCallNetworkQuality: Sendable, Equatable {
    public var uplink: PreCallLinkQuality
    public var downlink: PreCallLinkQuality

    public init(uplink: PreCallLinkQuality, downlink: PreCallLinkQuality) {
        self.uplink = uplink
        self.downlink = downlink
    }
}
