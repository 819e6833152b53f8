import RTP

/// The send side of one publisher connection, as a state machine with time injected: encoded
/// frames in, RTP out (paced), RTCP sender reports out, and the receivers' feedback in (PLI and
/// FIR become keyframe requests, NACKs retransmissions). It does no I/O: each call returns the
/// packets to send, plain (the connection protects them as SRTP), so the same code drives a live
/// connection, a capture written to disk, and tests.
///
/// - RTP (RFC 3550 §5.1): sequence numbers and timestamps start at random values; a frame's
///   packets share its timestamp and the last has the marker bit (RFC 7741 §4.1; every Opus
///   packet is a frame). Timestamps come from the frame's media time, so audio and video of one
///   sender are on one timeline.
/// - Header extensions (RFC 8285 one-byte form): the mid, the audio level (RFC 6464),
///   abs-send-time and, for a simulcast layer, its RID (RFC 8852 §3: rtp-stream-id on its
///   packets, repaired-rtp-stream-id on its retransmissions), as negotiated.
/// - Sender reports (RFC 3550 §6.4.1) tie each stream's RTP timestamps to one NTP wall clock: the
///   first as soon as a stream has sent a packet, then about once a second (randomised 0.5–1.5×,
///   §6.3.1), each with an SDES CNAME (§6.5.1) naming the participant. That NTP↔RTP mapping is
///   what the recorder uses to put this sender's audio and video in sync.
/// - Transport-wide congestion control: every packet (retransmissions too) carries a
///   transport-wide sequence number when negotiated, and the server's TWCC feedback
///   (draft-holmer-rmcat-transport-wide-cc-extensions-01 §3.1) is matched to the send times
///   and fed to `transportEstimator` (`SendSideBandwidthEstimator`), the sender's own estimate.
/// - NACKs (RFC 4585 §6.2.1) are answered from a history of the last 1,024 video packets sent
///   within a second, as RTX (RFC 4588 §4: the original sequence number, then the payload, on the
///   RTX SSRC) when negotiated, else as the packet again.
public struct MediaSender: Sendable {
    public enum Action: Sendable, Equatable {
        case sendRTP([UInt8])
        case sendRTCP([UInt8])
        /// A receiver asked for a keyframe of this SSRC: encode the next picture as one.
        case keyframeRequested(ssrc: UInt32)
    }

    public struct Statistics: Sendable, Equatable {
        public var packetsSent = 0
        public var bytesSent = 0
        public var senderReportsSent = 0
        public var nacksReceived = 0
        public var retransmissionsSent = 0
        /// Lost packets asked for that had left the history.
        public var retransmissionsMissed = 0
        public var pliReceived = 0
        public var firReceived = 0
        /// The last REMB estimate of the path (bits per second), if the server sent one.
        public var estimatedBitrate: UInt64?
        /// The sender's own estimate from the TWCC feedback (bits per second), once one came.
        public var transportEstimate: UInt64?
        public var transportFeedbackReceived = 0
        /// Times that estimate was cut because a queue was building (delay), and for loss.
        public var transportDelayDecreases = 0
        public var transportLossDecreases = 0
        /// Frames that could not be packetized (empty, or an Opus packet over the size limit).
        public var framesRefused = 0
        /// RTP payload bytes (the encoded frames with their payload descriptors, as sender reports
        /// count them; retransmissions not) sent on each media SSRC: what each simulcast layer's
        /// encoder makes of its target.
        public var bytesSentBySSRC: [UInt32: Int] = [:]
    }

    /// The RTCP CNAME of every stream (one per participant, RFC 3550 §6.5.1).
    public let cname: String
    /// The monotonic time media time 0 falls on.
    public let origin: Double
    /// Unix seconds at `origin`: NTP timestamps are this plus the time since.
    public let wallClockAtOrigin: Double
    public private(set) var statistics = Statistics()
    /// Mean seconds between sender reports.
    public var reportInterval: Double = 1
    private var streams: [OutgoingStream]
    private var pacer: Pacer
    private var transportSequences = TransportSequenceHistory()
    /// Runs on the server's TWCC feedback once set (the publisher sets it with its own rates).
    public var transportEstimator: SendSideBandwidthEstimator?
    /// Draws the starting sequence numbers, timestamps and the reports' jitter; seeded in tests.
    private var random: any RandomNumberGenerator & Sendable
    private let maxPacketSize: Int
    /// How long a sent video packet can still be asked for.
    static let historyAge = 1.0

    /// - Parameters:
    ///   - origin: the monotonic time (the same clock `poll` is given) of media time 0.
    ///   - wallClock: Unix seconds at `origin`.
    ///   - pacingBitsPerSecond: how fast the pacer drains (a multiple of the target bitrate).
    ///   - maxPacketSize: the largest RTP packet before SRTP's 10-byte tag (1,200 keeps a packet
    ///     under every path MTU WebRTC meets).
    public init(tracks: [SendTrack], cname: String, origin: Double, wallClock: Double, pacingBitsPerSecond: Double,
                maxPacketSize: Int = 1200, random: any RandomNumberGenerator & Sendable = SystemRandomNumberGenerator())
    {
        var random = random
        streams = tracks.map { OutgoingStream(track: $0, generator: &random) }
        self.random = random
        self.cname = cname
        self.origin = origin
        wallClockAtOrigin = wallClock
        pacer = Pacer(bitsPerSecond: pacingBitsPerSecond)
        self.maxPacketSize = maxPacketSize
    }

    /// The tracks, in the order given.
    public var tracks: [SendTrack] { streams.map(\.track) }

    /// Adds a track negotiated once sending had begun (a section of a later offer, such as a
    /// track for one participant): its sequence numbers and timestamps start at random values
    /// of their own. A track of an SSRC already sent is left as it is. Tracks are never taken
    /// out (packets of theirs may still be queued); a track that ends is not sent on, and
    /// `end(ssrcs:now:)` stops its reports.
    public mutating func add(_ track: SendTrack) {
        guard !streams.contains(where: { $0.track.ssrc == track.ssrc }) else { return }
        var random = random
        streams.append(OutgoingStream(track: track, generator: &random))
        self.random = random
    }

    /// How fast the pacer drains from now on, in bits per second.
    public var pacingBitsPerSecond: Double {
        get { pacer.rate * 8 }
        set { pacer.setRate(bitsPerSecond: newValue) }
    }

    /// Seconds of packets waiting in the pacer: a sender that cannot keep up sees it grow.
    public var queueDelay: Double { pacer.queueDelay }

    /// The RTP timestamp a stream gives media time `seconds`.
    public func rtpTimestamp(ssrc: UInt32, at seconds: Double) -> UInt32? {
        streams.first { $0.track.ssrc == ssrc }?.timestamp(at: seconds)
    }

    /// Queues one encoded frame of the track with `ssrc`, captured at `mediaTime` seconds after
    /// the origin. `audioLevel` is RFC 6464's for an audio frame. `temporalLayer` is the video
    /// frame's layer when its encoder makes temporal layers, which VP8's payload descriptor
    /// carries (TID, Y and TL0PICIDX, RFC 7741 §4.2); H.264 and Opus ignore it. False if nothing
    /// was queued.
    @discardableResult
    public mutating func send(frame: [UInt8], ssrc: UInt32, mediaTime: Double, audioLevel: UInt8? = nil,
                              temporalLayer: TemporalLayer? = nil) -> Bool
    {
        guard let index = streams.firstIndex(where: { $0.track.ssrc == ssrc }), !streams[index].ended else { return false }
        let room = maxPacketSize - headerSize(of: streams[index].track)
        let payloads = streams[index].packetizer.packetize(frame, temporalLayer: temporalLayer, maxPayloadSize: room)
        guard !payloads.isEmpty else {
            statistics.framesRefused += 1
            return false
        }
        let timestamp = streams[index].timestamp(at: mediaTime)
        for (number, payload) in payloads.enumerated() {
            let item = Pacer.Item(stream: index, marker: number == payloads.count - 1, timestamp: timestamp, sequence: streams[index].sequence,
                                  payload: payload, audioLevel: audioLevel)
            streams[index].sequence += 1
            pacer.enqueue(item, isAudio: streams[index].track.codec.isAudio)
        }
        return true
    }

    /// Sends what the pacer allows now, and the sender reports that are due.
    public mutating func poll(now: Double) -> [Action] {
        var actions: [Action] = []
        while let item = pacer.next(now: now) {
            // What an ended stream still had queued does not go after its BYE (RFC 3550 §6.6).
            if streams[item.stream].ended { continue }
            let transportSequence = streams[item.stream].track.transportWideCCExtensionID == nil ? nil : transportSequences.take()
            guard let bytes = packet(item, transportSequence: transportSequence, now: now) else { continue }
            if let transportSequence { transportSequences.sent(transportSequence, size: bytes.count, at: now) }
            let index = item.stream
            if streams[index].history != nil {
                bytes.withUnsafeBufferPointer { streams[index].history?.store($0, sequence: item.sequence, arrival: now) }
            }
            streams[index].packetsSent &+= 1
            streams[index].octetsSent &+= UInt32(truncatingIfNeeded: item.payload.count)
            statistics.packetsSent += 1
            statistics.bytesSent += bytes.count
            statistics.bytesSentBySSRC[streams[index].track.ssrc, default: 0] += item.payload.count
            actions.append(.sendRTP(bytes))
            // The first report goes with the first packet, so a receiver can sync at once.
            if streams[index].nextReport == nil && !streams[index].ended { streams[index].nextReport = now }
        }
        for index in streams.indices {
            guard let due = streams[index].nextReport, due <= now, let report = senderReport(index, now: now) else { continue }
            actions.append(.sendRTCP(report))
            statistics.senderReportsSent += 1
            streams[index].nextReport = now + reportInterval * Double.random(in: 0.5..<1.5, using: &random)
        }
        return actions
    }

    /// When `poll` next has something to do: a packet the pacer holds, or a report.
    public func nextDeadline(now: Double) -> Double? {
        ([pacer.nextDeadline(now: now)] + streams.map(\.nextReport)).compactMap { $0 }.min()
    }

    /// A compound RTCP packet from the server (already decrypted).
    public mutating func receiveRTCP(_ bytes: [UInt8], now: Double) -> [Action] {
        guard let packets = try? RTCPPacket.parseCompound(bytes) else { return [] }
        var actions: [Action] = []
        for packet in packets {
            switch packet {
            case .nack(let nack):
                guard let index = streams.firstIndex(where: { $0.track.ssrc == nack.mediaSSRC }) else { continue }
                statistics.nacksReceived += 1
                actions += retransmit(nack.lostSequenceNumbers, of: index, now: now)
            case .pictureLossIndication(let pli):
                guard streams.contains(where: { $0.track.ssrc == pli.mediaSSRC && $0.track.codec.isAudio == false }) else { continue }
                statistics.pliReceived += 1
                actions.append(.keyframeRequested(ssrc: pli.mediaSSRC))
            case .fullIntraRequest(let fir):
                for entry in fir.entries {
                    guard let index = streams.firstIndex(where: { $0.track.ssrc == entry.ssrc && $0.track.codec.isAudio == false }),
                          streams[index].firSequences[fir.senderSSRC] != entry.sequenceNumber
                    else { continue }
                    streams[index].firSequences[fir.senderSSRC] = entry.sequenceNumber
                    statistics.firReceived += 1
                    actions.append(.keyframeRequested(ssrc: entry.ssrc))
                }
            case .other:
                if let remb = try? RTCPReceiverEstimatedMaximumBitrate(packet) {
                    statistics.estimatedBitrate = remb.bitrate
                } else if let feedback = try? RTCPTransportFeedback(packet), var estimator = transportEstimator {
                    estimator.update(with: transportSequences.reports(for: feedback), now: now)
                    transportEstimator = estimator
                    statistics.transportFeedbackReceived += 1
                    statistics.transportEstimate = UInt64(estimator.estimate)
                    statistics.transportDelayDecreases = estimator.delayDecreases
                    statistics.transportLossDecreases = estimator.lossDecreases
                }
            default:
                break
            }
        }
        return actions
    }

    /// Ends the streams of `ssrcs` (a camera section offered again with new streams, a
    /// publication taken back): they send no more sender reports, and this returns the last
    /// report of each with an RTCP BYE for them and their RTX (RFC 3550 §6.6), or nil when none
    /// of them is a stream still going. Their packets still in the pacer go out.
    public mutating func end(ssrcs: Set<UInt32>, now: Double) -> [UInt8]? {
        var reports: [UInt8] = []
        var sources: [UInt32] = []
        for index in streams.indices where ssrcs.contains(streams[index].track.ssrc) && !streams[index].ended {
            streams[index].ended = true
            // A stream that never sent was never heard of: nothing to report, nobody to tell.
            guard streams[index].nextReport != nil else { continue }
            streams[index].nextReport = nil
            if let report = senderReport(index, now: now) {
                reports += report
                statistics.senderReportsSent += 1
            }
            sources += [streams[index].track.ssrc] + (streams[index].track.rtxSSRC.map { [$0] } ?? [])
        }
        // A compound packet starts with a report (RFC 3550 §6.1): the last one of each.
        guard !sources.isEmpty, !reports.isEmpty,
              let bye = try? RTCPPacket.goodbye(RTCPGoodbye(sources: sources, reason: "replaced")).marshal() else { return nil }
        return reports + bye
    }

    /// An RTCP BYE for every SSRC (RFC 3550 §6.6), after a last report, for leaving.
    public func goodbye(now: Double) -> [UInt8]? {
        guard let first = streams.indices.first, let report = senderReport(first, now: now) else { return nil }
        let sources = streams.flatMap { [$0.track.ssrc] + ($0.track.rtxSSRC.map { [$0] } ?? []) }
        guard let bye = try? RTCPPacket.goodbye(RTCPGoodbye(sources: sources, reason: "leaving")).marshal() else { return nil }
        return report + bye
    }

    // MARK: - Packets

    /// - Parameter repair: a retransmission on the RTX SSRC, which names the layer it repairs.
    private func extensions(of track: SendTrack, audioLevel: UInt8?, transportSequence: UInt16?, now: Double, repair: Bool = false)
        -> RTPHeaderExtension?
    {
        var elements: [RTPHeaderExtension.Element] = []
        if let id = track.midExtensionID, let mid = track.mid, !mid.isEmpty {
            elements.append(.init(id: id, data: Array(mid.utf8.prefix(16))))
        }
        // RFC 8852 §3: the RID as its characters, on every packet (the one-byte form holds 16).
        if let rid = track.rid, !rid.isEmpty, let id = repair ? track.repairedRIDExtensionID : track.ridExtensionID {
            elements.append(.init(id: id, data: Array(rid.utf8.prefix(16))))
        }
        if let id = track.audioLevelExtensionID, let audioLevel {
            // RFC 6464 §3: V (voice activity) is set when the level is above silence.
            elements.append(.init(id: id, data: [(audioLevel < 127 ? 0x80 : 0) | audioLevel & 0x7F]))
        }
        if let id = track.absSendTimeExtensionID {
            // 6.18 fixed-point seconds, 24 bits (webrtc.org abs-send-time).
            let value = UInt32(truncatingIfNeeded: Int64((now * 262_144).rounded(.down))) & 0xFF_FFFF
            elements.append(.init(id: id, data: [UInt8(value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]))
        }
        if let id = track.transportWideCCExtensionID, let transportSequence {
            // The sequence number, 16 bits big-endian (draft-holmer-rmcat-transport-wide-cc-extensions-01 §2).
            elements.append(.init(id: id, data: [UInt8(transportSequence >> 8), UInt8(truncatingIfNeeded: transportSequence)]))
        }
        return elements.isEmpty ? nil : .oneByte(elements)
    }

    /// The header's size for a track with every extension it may carry.
    private func headerSize(of track: SendTrack) -> Int {
        RTPPacket(payloadType: track.payloadType, sequenceNumber: 0, timestamp: 0, ssrc: track.ssrc,
                  headerExtension: extensions(of: track, audioLevel: 0, transportSequence: 0, now: 0), payload: []).headerSize
    }

    private func packet(_ item: Pacer.Item, transportSequence: UInt16?, now: Double) -> [UInt8]? {
        let track = streams[item.stream].track
        let packet = RTPPacket(marker: item.marker, payloadType: track.payloadType, sequenceNumber: UInt16(truncatingIfNeeded: item.sequence),
                               timestamp: item.timestamp, ssrc: track.ssrc,
                               headerExtension: extensions(of: track, audioLevel: item.audioLevel, transportSequence: transportSequence, now: now),
                               payload: item.payload)
        return try? packet.marshal()
    }

    private mutating func retransmit(_ lost: [UInt16], of index: Int, now: Double) -> [Action] {
        guard let history = streams[index].history, !streams[index].ended else { return [] }
        let track = streams[index].track
        var actions: [Action] = []
        for sequence in lost {
            let extended = streams[index].extended(sequence)
            guard let original = history.withPacket(extended, now: now, maxAge: MediaSender.historyAge, { Array($0) }),
                  let parsed = try? RTPPacket(parsing: original)
            else {
                statistics.retransmissionsMissed += 1
                continue
            }
            var again = parsed
            var repair = false
            if let rtxSSRC = track.rtxSSRC, let rtxPayloadType = track.rtxPayloadType {
                repair = true
                again.ssrc = rtxSSRC
                again.payloadType = rtxPayloadType
                again.sequenceNumber = streams[index].rtxSequence
                streams[index].rtxSequence &+= 1
                again.payload = [UInt8(parsed.sequenceNumber >> 8), UInt8(truncatingIfNeeded: parsed.sequenceNumber)] + parsed.payload
            }
            let transportSequence = track.transportWideCCExtensionID == nil ? nil : transportSequences.take()
            again.headerExtension = extensions(of: track, audioLevel: nil, transportSequence: transportSequence, now: now, repair: repair)
            guard let bytes = try? again.marshal() else { continue }
            if let transportSequence { transportSequences.sent(transportSequence, size: bytes.count, at: now) }
            statistics.retransmissionsSent += 1
            statistics.bytesSent += bytes.count
            actions.append(.sendRTP(bytes))
        }
        return actions
    }

    private func senderReport(_ index: Int, now: Double) -> [UInt8]? {
        let stream = streams[index]
        let elapsed = now - origin
        let report = RTCPSenderReport(ssrc: stream.track.ssrc,
                                      ntpTimestamp: NTPTimestamp(ntpSeconds: wallClockAtOrigin + elapsed + NTPTimestamp.unixEpochOffset),
                                      rtpTimestamp: stream.timestamp(at: elapsed), packetCount: stream.packetsSent, octetCount: stream.octetsSent)
        let cname = RTCPSourceDescription.Item(type: RTCPSourceDescription.Item.cname, text: Array(cname.utf8.prefix(255)))
        return try? RTCPPacket.marshalCompound([.senderReport(report),
                                                .sourceDescription(RTCPSourceDescription(chunks: [.init(source: stream.track.ssrc, items: [cname])]))])
    }
}
