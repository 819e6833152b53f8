import Ingest
import Log
import MediaSource

/// The media half of receiving a room, sans-IO: datagrams in (with their arrival on the
/// owner's clock); whole frames, opened for end-to-end encryption, and feedback out. The
/// recorder (`RecordingPipeline`, for live rooms and fixtures alike), the SDK (`MediaReceiver`)
/// and the transcriber all receive through it, so they share one jitter buffer, one keyframe
/// and report policy and one E2EE rule.
///
/// The policy:
/// - a video track's first frame must be a keyframe: a PLI goes when it starts, and again every
///   `keyframeRequestInterval` until the owner says a picture decoded (`pictureDecoded`);
/// - a PLI when the jitter buffer gives up on a frame, when a frame does not decrypt, or when a
///   decoder needs one (`keyframeNeeded`), at most one a track per `keyframeRequestInterval`
///   (RFC 4585 §6.3.1: asking again sooner only adds keyframes to the room); after a frame that
///   did not decrypt, the track's frames are held back until a keyframe (asked for again each
///   interval), so no picture is decoded against references the decoder never had;
/// - NACKs as the jitter buffer finds gaps (RFC 4585 §6.2.1);
/// - receiver reports every `receiverReportInterval` (RFC 3550 §6.2 leaves the interval to the
///   application; 1 s is what browsers send at these rates), which the SFU reads for loss.
///
/// While `canSend` is false (the owner's connection is not up), keyframe requests wait and no
/// report goes: the next `poll` after it comes up sends them.
///
/// Time is injected: every call takes the owner's clock. Not thread-safe: one owner's thread.
public final class SubscriberSession {
    public struct Policy: Sendable, Equatable {
        public var keyframeRequestInterval: Double
        public var receiverReportInterval: Double

        public init(keyframeRequestInterval: Double = 1.0, receiverReportInterval: Double = 1.0) {
            self.keyframeRequestInterval = keyframeRequestInterval
            self.receiverReportInterval = receiverReportInterval
        }
    }

    public let policy: Policy
    public let e2ee: E2EEGate
    /// Whether feedback can leave now; false holds keyframe requests and reports back.
    public var canSend = true
    private var ingest = IngestSession(tracks: [])
    private var received = Set<UInt32>()
    /// Video tracks with no picture decoded yet.
    private var awaitingPicture = Set<UInt32>()
    /// Video tracks whose starting request has not gone yet (it goes even if a keyframe the
    /// SFU asked for came first: the request is cheap and the start must not hang on it).
    private var startingRequests = Set<UInt32>()
    /// Video tracks that lost a frame that did not decrypt (a key that changed): their next
    /// frames would decode against pictures the decoder never had, so they are held back until
    /// a keyframe, which is asked for every `keyframeRequestInterval` meanwhile.
    private var awaitingKeyframe = Set<UInt32>()
    private var lastKeyframeRequest: [UInt32: Double] = [:]
    private var lastReport: Double?

    public init(e2ee: E2EEGate, policy: Policy = Policy()) {
        self.e2ee = e2ee
        self.policy = policy
    }

    /// The tracks being received.
    public var tracks: [TrackInfo] { ingest.tracks }
    /// The session clock: media times, and each participant's own clock (`MediaClock`).
    public var clock: MediaClock { ingest.clock }

    /// A track's packet and buffer counters.
    public func statistics(ssrc: UInt32) -> TrackStatistics? { ingest.statistics(ssrc: ssrc) }

    /// Starts receiving a track (a video track's keyframe is asked for at once).
    public func add(_ track: TrackInfo, at now: Double) -> [SubscriberOutput] {
        ingest.add(track)
        received.insert(track.ssrc)
        guard track.kind.isVideo else { return [] }
        awaitingPicture.insert(track.ssrc)
        startingRequests.insert(track.ssrc)
        var outputs: [SubscriberOutput] = []
        requestKeyframe(track.ssrc, at: now, into: &outputs)
        return outputs
    }

    /// Stops receiving a track; the whole frames it still holds come out first.
    public func remove(ssrc: UInt32, at now: Double) -> [SubscriberOutput] {
        let outputs = map(ingest.remove(ssrc: ssrc), at: now)
        received.remove(ssrc)
        awaitingPicture.remove(ssrc)
        startingRequests.remove(ssrc)
        awaitingKeyframe.remove(ssrc)
        lastKeyframeRequest[ssrc] = nil
        return outputs
    }

    /// One datagram (RTP or RTCP) that arrived at `arrival`.
    public func receive(_ datagram: [UInt8], arrival: Double) -> [SubscriberOutput] {
        map(ingest.receive(datagram, arrival: arrival), at: arrival)
    }

    /// Timers: the jitter buffer's (NACK retries, loss time-outs), waiting keyframe requests,
    /// receiver reports.
    public func poll(at now: Double) -> [SubscriberOutput] {
        var outputs = map(ingest.poll(at: now), at: now)
        for ssrc in awaitingPicture.union(startingRequests).union(awaitingKeyframe).sorted() { requestKeyframe(ssrc, at: now, into: &outputs) }
        if canSend, now - (lastReport ?? -.infinity) >= policy.receiverReportInterval {
            lastReport = now
            let reports = ingest.receptionReports(at: now)
            if !reports.isEmpty { outputs.append(.feedback(.receiverReport(reports))) }
        }
        return outputs
    }

    /// A picture of `ssrc` decoded: its start is over.
    public func pictureDecoded(ssrc: UInt32) {
        awaitingPicture.remove(ssrc)
    }

    /// The decoder of `ssrc` cannot go on without a keyframe.
    public func keyframeNeeded(ssrc: UInt32, at now: Double) -> [SubscriberOutput] {
        var outputs: [SubscriberOutput] = []
        requestKeyframe(ssrc, at: now, into: &outputs)
        return outputs
    }

    /// The end: every whole frame still held comes out.
    public func finish(at now: Double) -> [SubscriberOutput] {
        map(ingest.finish(), at: now)
    }

    private func map(_ events: [IngestEvent], at now: Double) -> [SubscriberOutput] {
        var outputs: [SubscriberOutput] = []
        for event in events {
            switch event {
            case .frame(let received):
                let ssrc = received.track.ssrc
                if let frame = e2ee.open(received) {
                    if awaitingKeyframe.contains(ssrc) {
                        guard frame.isKeyframe else { continue }
                        awaitingKeyframe.remove(ssrc)
                    }
                    outputs.append(.frame(frame))
                } else {
                    outputs.append(.undecryptable(received.track))
                    // What follows a dropped frame does not decode until the next keyframe.
                    if received.track.kind.isVideo {
                        awaitingKeyframe.insert(ssrc)
                        requestKeyframe(ssrc, at: now, into: &outputs)
                    }
                }
            case .sendNack(let ssrc, let sequenceNumbers):
                outputs.append(.feedback(.nack(ssrc: ssrc, sequenceNumbers: sequenceNumbers)))
            case .requestKeyframe(let ssrc):
                requestKeyframe(ssrc, at: now, into: &outputs)
            case .participantJoined:
                // Who is in the room is signalling's (or the manifest's) to say, not the first packet's.
                break
            case .participantLeft(let id, let time):
                outputs.append(.participantLeft(participantID: id, at: time))
            }
        }
        return outputs
    }

    private func requestKeyframe(_ ssrc: UInt32, at now: Double, into outputs: inout [SubscriberOutput]) {
        guard canSend, received.contains(ssrc) else { return }
        if let last = lastKeyframeRequest[ssrc], now - last < policy.keyframeRequestInterval { return }
        lastKeyframeRequest[ssrc] = now
        startingRequests.remove(ssrc)
        outputs.append(.feedback(.pictureLossIndication(ssrc: ssrc)))
    }
}
