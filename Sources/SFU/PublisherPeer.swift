/// A publisher connection: its producers, the SSRCs learned for them, and what the router
/// feeds back on the whole connection (receiver reports, REMB, transport-wide CC).
final class PublisherPeer {
    let id: PeerID
    var producers: [Producer] = []
    /// SSRC → producer, learned as packets are placed (for `receiveRTP(_:fromPeer:now:)`).
    var producerBySSRC: [UInt32: Producer] = [:]
    var transportFeedback = TransportFeedbackRecorder()
    var estimator: BandwidthEstimator
    var nextReport: Double
    var nextFeedback: Double
    /// The newest media SSRC seen, for the TWCC feedback's media SSRC field.
    var lastMediaSSRC: UInt32 = 0

    init(id: PeerID, configuration: RouterConfiguration, now: Double) {
        self.id = id
        estimator = BandwidthEstimator(maximum: configuration.maxIncomingBitrate, minimum: configuration.minIncomingBitrate,
                                       adaptive: configuration.adaptiveIncomingBitrate)
        nextReport = now + configuration.reportInterval / 2
        nextFeedback = now + configuration.transportFeedbackInterval
    }

    // What the connection's producers agree on (BUNDLE shares one extension map), kept current
    // by `refresh()` so the hot path does not search.
    private(set) var midID: UInt8?
    private(set) var transportCCID: UInt8?
    private(set) var absSendTimeID: UInt8?
    private(set) var wantsREMB = false
    private(set) var wantsTransportFeedback = false
    private(set) var reducedSizeRTCP = true

    func refresh() {
        midID = producers.lazy.compactMap(\.extensions.mid).first
        transportCCID = producers.lazy.compactMap(\.extensions.transportCC).first
        absSendTimeID = producers.lazy.compactMap(\.extensions.absSendTime).first
        wantsREMB = producers.contains { $0.parameters.feedback.contains(.remb) }
        wantsTransportFeedback = transportCCID != nil && producers.contains { $0.parameters.feedback.contains(.transportCC) }
        reducedSizeRTCP = producers.allSatisfy(\.parameters.reducedSizeRTCP)
    }
}
