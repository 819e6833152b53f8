/// The router's tunables. The defaults follow what mediasoup, Janus and libwebrtc do (see
/// webrtc-interop.md §4).
public struct RouterConfiguration: Sendable, Equatable {
    /// The shortest time between two keyframe requests (PLI or FIR) for one producer stream,
    /// however many subscribers ask (janus videoroom: one a second; mediasoup: none within RTT).
    public var keyframeRequestInterval: Double = 0.5
    /// Packets kept per video stream to answer NACKs (a power of two; rounded up).
    public var packetCacheCapacity: Int = 1024
    /// How old a cached packet may be and still be sent again, in seconds.
    public var packetCacheMaxAge: Double = 1.0
    /// How long after a gap appears the router first NACKs it (a little reordering is normal).
    public var nackDelay: Double = 0.01
    /// How often a missing packet is NACKed again.
    public var nackRetryInterval: Double = 0.05
    /// How many times a missing packet is NACKed before it is given up.
    public var nackMaxRetries: Int = 8
    /// The widest gap that is NACKed; a wider one waits for a keyframe instead.
    public var nackMaxGap: Int = 256
    /// The shortest time between two retransmissions of one packet to one subscriber.
    public var retransmitMinInterval: Double = 0.02
    /// How often receiver reports (and REMB) go to each publisher.
    public var reportInterval: Double = 1.0
    /// How often transport-wide CC feedback goes to publishers that negotiated it.
    public var transportFeedbackInterval: Double = 0.1
    /// The REMB cap sent to publishers, bits per second (the room's budget per publisher).
    public var maxIncomingBitrate: UInt64 = 3_000_000
    /// The lowest estimate REMB will carry.
    public var minIncomingBitrate: UInt64 = 150_000
    /// When false, REMB always carries `maxIncomingBitrate` (Janus does this); when true, the
    /// router lowers it on loss or growing queueing delay (from abs-send-time) and recovers.
    public var adaptiveIncomingBitrate: Bool = true
    /// A stream with no packet for this long counts as stopped (Chromium pauses simulcast layers
    /// its encoder cannot afford).
    public var layerInactivityTimeout: Double = 1.5
    /// How long a subscriber's budget must allow a higher layer before the router moves up.
    public var layerUpgradeDelay: Double = 2.0
    /// Active-speaker detection.
    public var speaker = SpeakerConfiguration()
    /// Seeds the router's SSRCs and initial sequence numbers; nil for system randomness.
    public var seed: UInt64?

    public init() {}
}

/// Active-speaker detection from RFC 6464 audio levels.
public struct SpeakerConfiguration: Sendable, Equatable {
    /// The length of one averaging window, seconds.
    public var window: Double = 0.3
    /// Levels (in −dBov, 0 loudest, 127 silent) above this average count as silence.
    public var silenceLevel: UInt8 = 60
    /// How many consecutive windows a new speaker must be the loudest, and louder than the
    /// current speaker, before taking over.
    public var windowsToSwitch: Int = 2
    /// How much louder (dB) than the current speaker a new one must be while both speak.
    public var switchMargin: Double = 3
    /// After this long without anyone speaking, the speaker becomes nil; nil keeps the last one.
    public var silenceTimeout: Double?

    public init() {}
}
