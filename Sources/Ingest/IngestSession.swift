import RTP

/// A whole encoded frame of one track, placed on the session clock.
public struct EncodedFrame: Sendable, Equatable {
    public var track: TrackInfo
    public var data: [UInt8]
    public var isKeyframe: Bool
    /// Unwrapped RTP timestamp.
    public var rtpTimestamp: Int64
    /// Seconds since the session began.
    public var mediaTime: Double
    /// Packets lost just before this frame (audio conceals them).
    public var lostBefore: Int
    /// The unwrapped sequence numbers of the frame's first and last packets.
    public var sequenceRange: ClosedRange<Int64>
    /// The temporal layer its payload descriptor gave it (VP8's TID and Y, RFC 7741 §4.2); nil
    /// when it gave none.
    public var temporalLayer: TemporalLayer?

    public init(track: TrackInfo, data: [UInt8], isKeyframe: Bool, rtpTimestamp: Int64, mediaTime: Double, lostBefore: Int,
                sequenceRange: ClosedRange<Int64>, temporalLayer: TemporalLayer? = nil)
    {
        self.temporalLayer = temporalLayer
        self.track = track
        self.data = data
        self.isKeyframe = isKeyframe
        self.rtpTimestamp = rtpTimestamp
        self.mediaTime = mediaTime
        self.lostBefore = lostBefore
        self.sequenceRange = sequenceRange
    }
}

/// What the receive path asks its caller to do.
public enum IngestEvent: Sendable, Equatable {
    /// A whole frame, in decode order, to decode.
    case frame(EncodedFrame)
    /// RTCP generic NACK to send for a track (RFC 4585 §6.2.1).
    case sendNack(ssrc: UInt32, sequenceNumbers: [UInt16])
    /// RTCP PLI to send for a track (RFC 4585 §6.3.1).
    case requestKeyframe(ssrc: UInt32)
    /// The first RTP packet of a participant's tracks arrived.
    case participantJoined(participantID: String, mediaTime: Double)
    /// Every track of a participant said BYE (RFC 3550 §6.6).
    case participantLeft(participantID: String, mediaTime: Double)
}

/// The receive half of a session: datagrams in (RTP or RTCP, told apart as RFC 5761 §4 says),
/// whole frames on the session clock out. The same object serves a fixture and a live room.
public struct IngestSession: Sendable {
    public private(set) var clock: MediaClock
    private var receivers: [UInt32: TrackReceiver] = [:]
    /// The tracks' RTX streams (RFC 4588), by RTX SSRC: whose retransmissions they carry.
    private var retransmissions: [UInt32: (mediaSSRC: UInt32, payloadType: UInt8)] = [:]
    /// RTX packets with nothing to retransmit (padding a sender probes the path with).
    public private(set) var rtxPaddingPackets = 0
    /// Counters for datagrams that were not usable.
    public private(set) var unknownSSRCPackets = 0
    public private(set) var malformedRTP = 0
    public private(set) var malformedRTCP = 0
    public private(set) var lastMalformedReason: String?
    private var leftParticipants = Set<String>()
    private var joinedParticipants = Set<String>()
    /// How long whole frames may wait for their streams' first sender reports.
    public let reportWait: Double
    /// Frames waiting for sender reports, in the order they were assembled.
    private var held: [(track: TrackInfo, frame: JitterBuffer.Frame)] = []
    private var holdStarted: [ReportWait: Double] = [:]
    /// Participants whose first frames have been placed; a stream of theirs that comes later
    /// waits for its own report.
    private var participantsPlaced = Set<String>()
    /// Streams that have placed frames: they never wait again.
    private var streamsPlaced = Set<UInt32>()

    /// What a frame waits for before it is placed on the clock. A participant's first frames wait
    /// until every stream of theirs that has packets has a sender report, so their audio and
    /// video start on the sender's clock together (a mapping switched after media was placed
    /// has to slew, and the first second of a recording would be out of sync). A room's SFU sends
    /// its latest report right after a new subscriber's first packet; a sender that has sent
    /// none yet (Chromium waits a second or so) is waited for at most `reportWait`, which is
    /// well inside the compositor's playout delay.
    private enum ReportWait: Hashable {
        case participant(String)
        case stream(UInt32)
    }

    public init(tracks: [TrackInfo], origin: Double = 0, clock configuration: MediaClock.Configuration = .init(),
                reportWait: Double = 0.3)
    {
        clock = MediaClock(origin: origin, configuration: configuration)
        self.reportWait = reportWait
        for track in tracks { add(track) }
    }

    public var tracks: [TrackInfo] { receivers.values.map(\.info).sorted { $0.ssrc < $1.ssrc } }

    /// Starts receiving a track (a join or a publish). A track that is already there is left
    /// as it is, so a repeated announcement does not reset its buffer.
    public mutating func add(_ track: TrackInfo) {
        guard receivers[track.ssrc]?.info != track else { return }
        receivers[track.ssrc] = TrackReceiver(info: track)
        retransmissions = retransmissions.filter { $0.value.mediaSSRC != track.ssrc }
        if let rtxSSRC = track.rtxSSRC, let payloadType = track.rtxPayloadType { retransmissions[rtxSSRC] = (track.ssrc, payloadType) }
        clock.register(ssrc: track.ssrc, participant: track.participantID, clockRate: track.clockRate)
    }

    /// Stops receiving a track (an unpublish or a leave): the whole frames it still holds are
    /// released first, then its packets are unknown.
    public mutating func remove(ssrc: UInt32) -> [IngestEvent] {
        guard var receiver = receivers[ssrc] else { return [] }
        let actions = receiver.flush()
        receivers[ssrc] = nil
        retransmissions = retransmissions.filter { $0.value.mediaSSRC != ssrc }
        // The clock keeps the stream's mapping: the released frames still need it below.
        var events: [IngestEvent] = []
        for entry in held where entry.track.ssrc == ssrc {
            if let event = place(entry.frame, track: entry.track) { events.append(event) }
        }
        held.removeAll { $0.track.ssrc == ssrc }
        // A track that goes waits for nothing more: what it still holds is placed now.
        streamsPlaced.insert(ssrc)
        return events + self.events(from: actions, track: receiver.info, at: receiver.lastArrival ?? 0)
    }

    /// Receiver report blocks for every track that has received something (RFC 3550 §6.4.2).
    public mutating func receptionReports(at now: Double) -> [RTCPReceptionReport] {
        var reports: [RTCPReceptionReport] = []
        for ssrc in receivers.keys.sorted() {
            guard var receiver = receivers[ssrc] else { continue }
            if let report = receiver.receptionReport(now: now) { reports.append(report) }
            receivers[ssrc] = receiver
        }
        return reports
    }

    /// Handles one datagram that arrived at `arrival` (seconds on the arrival clock).
    public mutating func receive(_ datagram: [UInt8], arrival: Double) -> [IngestEvent] {
        if RTPPacket.looksLikeRTCP(datagram) {
            return receiveRTCP(datagram, arrival: arrival)
        }
        var packet: RTPPacket
        do {
            packet = try RTPPacket(parsing: datagram)
        } catch {
            malformedRTP += 1
            lastMalformedReason = "RTP: \(error)"
            return []
        }
        var retransmitted = false
        if receivers[packet.ssrc] == nil, let rtx = retransmissions[packet.ssrc], let media = receivers[rtx.mediaSSRC] {
            guard packet.payloadType == rtx.payloadType else {
                unknownSSRCPackets += 1
                return []
            }
            // RFC 4588 §4: the payload starts with the original sequence number; nothing after
            // it is padding, which a sender probes the path's bandwidth with.
            guard packet.payload.count > 2 else {
                rtxPaddingPackets += 1
                return []
            }
            packet = RTPPacket(marker: packet.marker, payloadType: media.info.payloadType,
                               sequenceNumber: UInt16(packet.payload[0]) << 8 | UInt16(packet.payload[1]), timestamp: packet.timestamp,
                               ssrc: rtx.mediaSSRC, csrcs: packet.csrcs, headerExtension: packet.headerExtension,
                               payload: Array(packet.payload.dropFirst(2)))
            retransmitted = true
        }
        guard var receiver = receivers[packet.ssrc] else {
            unknownSSRCPackets += 1
            return []
        }
        let timestamp = receiver.unwrappedTimestamp(packet)
        // A retransmission's late arrival is no sample of the stream's delay.
        if !retransmitted { clock.observePacket(ssrc: packet.ssrc, timestamp: timestamp, arrival: arrival) }
        let actions = receiver.receive(packet, timestamp: timestamp, arrival: arrival, retransmitted: retransmitted)
        receivers[packet.ssrc] = receiver
        var events: [IngestEvent] = []
        if joinedParticipants.insert(receiver.info.participantID).inserted {
            events.append(.participantJoined(participantID: receiver.info.participantID, mediaTime: arrival - clock.origin))
        }
        events += self.events(from: actions, track: receiver.info, at: arrival)
        return events + releaseHeldFrames(at: arrival)
    }

    /// Lets time pass (live use): NACK retries, loss timeouts.
    public mutating func poll(at now: Double) -> [IngestEvent] {
        var events: [IngestEvent] = []
        for ssrc in receivers.keys.sorted() {
            guard var receiver = receivers[ssrc] else { continue }
            let actions = receiver.poll(at: now)
            receivers[ssrc] = receiver
            events += self.events(from: actions, track: receiver.info, at: now)
        }
        return events + releaseHeldFrames(at: now)
    }

    /// The session ended: release what is whole and count the rest as lost.
    public mutating func finish() -> [IngestEvent] {
        var events = releaseHeldFrames(at: .infinity)
        for ssrc in receivers.keys.sorted() {
            guard var receiver = receivers[ssrc] else { continue }
            let actions = receiver.flush()
            receivers[ssrc] = receiver
            events += self.events(from: actions, track: receiver.info, at: .infinity)
        }
        return events
    }

    /// Per-track counters.
    public func statistics(ssrc: UInt32) -> TrackStatistics? {
        guard let receiver = receivers[ssrc] else { return nil }
        return TrackStatistics(
            buffer: receiver.buffer.statistics, malformedPackets: receiver.malformedPackets,
            lastMalformedReason: receiver.lastMalformedReason, wrongPayloadType: receiver.wrongPayloadType,
            bytesReceived: receiver.bytesReceived, retransmittedPackets: receiver.retransmittedPackets,
            firstArrival: receiver.firstArrival, lastArrival: receiver.lastArrival,
            senderReports: clock.senderReports(ssrc: ssrc), leastDelay: clock.leastDelay(ssrc: ssrc),
            ended: receiver.ended)
    }

    private mutating func receiveRTCP(_ datagram: [UInt8], arrival: Double) -> [IngestEvent] {
        let packets: [RTCPPacket]
        do {
            packets = try RTCPPacket.parseCompound(datagram)
        } catch {
            malformedRTCP += 1
            lastMalformedReason = "RTCP: \(error)"
            return []
        }
        var events: [IngestEvent] = []
        for packet in packets {
            switch packet {
            case .senderReport(let report):
                clock.observeSenderReport(ssrc: report.ssrc, ntp: report.ntpTimestamp, rtpTimestamp: report.rtpTimestamp,
                                          arrival: arrival)
                receivers[report.ssrc]?.observeSenderReport(report.ntpTimestamp, arrival: arrival)
                events += releaseHeldFrames(at: arrival)
            case .goodbye(let goodbye):
                for source in goodbye.sources { receivers[source]?.markEnded() }
                events += participantsThatLeft(arrival: arrival)
            default:
                break
            }
        }
        return events
    }

    private mutating func participantsThatLeft(arrival: Double) -> [IngestEvent] {
        var events: [IngestEvent] = []
        let byParticipant = Dictionary(grouping: receivers.values, by: \.info.participantID)
        for (participant, tracks) in byParticipant.sorted(by: { $0.key < $1.key })
        where !leftParticipants.contains(participant) && tracks.allSatisfy(\.ended) {
            leftParticipants.insert(participant)
            events.append(.participantLeft(participantID: participant, mediaTime: arrival - clock.origin))
        }
        return events
    }

    private mutating func events(from actions: [JitterBuffer.Action], track: TrackInfo, at now: Double) -> [IngestEvent] {
        var events: [IngestEvent] = []
        for action in actions {
            switch action {
            case .frame(let frame):
                if mustWait(track, at: now) {
                    held.append((track, frame))
                } else if let event = place(frame, track: track) {
                    events.append(event)
                }
            case .sendNack(let sequences):
                events.append(.sendNack(ssrc: track.ssrc, sequenceNumbers: sequences.map { UInt16(truncatingIfNeeded: $0) }))
            case .requestKeyframe:
                events.append(.requestKeyframe(ssrc: track.ssrc))
            }
        }
        return events
    }

    private mutating func place(_ frame: JitterBuffer.Frame, track: TrackInfo) -> IngestEvent? {
        streamsPlaced.insert(track.ssrc)
        guard let mediaTime = clock.place(ssrc: track.ssrc, timestamp: frame.timestamp) else { return nil }
        return .frame(EncodedFrame(track: track, data: frame.data, isKeyframe: frame.isKeyframe, rtpTimestamp: frame.timestamp,
                                   mediaTime: mediaTime, lostBefore: frame.lostBefore,
                                   sequenceRange: frame.firstSequence...frame.lastSequence, temporalLayer: frame.temporalLayer))
    }

    private func reportWait(for track: TrackInfo) -> ReportWait {
        participantsPlaced.contains(track.participantID) ? .stream(track.ssrc) : .participant(track.participantID)
    }

    private func isReady(_ wait: ReportWait) -> Bool {
        switch wait {
        case .participant(let participant): !clock.awaitsSenderReport(participant: participant)
        case .stream(let ssrc): !clock.awaitsSenderReport(ssrc: ssrc)
        }
    }

    /// Whether a frame that is whole at `now` waits for sender reports (see `ReportWait`).
    private mutating func mustWait(_ track: TrackInfo, at now: Double) -> Bool {
        // Behind a frame of its own track that waits: decode order is kept.
        if held.contains(where: { $0.track.ssrc == track.ssrc }) { return true }
        if streamsPlaced.contains(track.ssrc) { return false }
        let wait = reportWait(for: track)
        let started = holdStarted[wait] ?? now
        // `!(… < …)`, not `>=`: finishing passes an infinite `now`, and ∞ − ∞ is NaN.
        if isReady(wait) || !(now - started < reportWait) {
            participantsPlaced.insert(track.participantID)
            return false
        }
        holdStarted[wait] = started
        return true
    }

    /// Places the frames whose reports came, or that have waited long enough, in the order
    /// they were assembled.
    private mutating func releaseHeldFrames(at now: Double) -> [IngestEvent] {
        guard !held.isEmpty else { return [] }
        var released = Set<UInt32>()
        for (wait, started) in holdStarted where isReady(wait) || !(now - started < reportWait) {
            holdStarted[wait] = nil
            switch wait {
            case .participant(let participant):
                participantsPlaced.insert(participant)
                released.formUnion(held.filter { $0.track.participantID == participant }.map(\.track.ssrc))
            case .stream(let ssrc):
                released.insert(ssrc)
            }
        }
        guard !released.isEmpty else { return [] }
        var events: [IngestEvent] = []
        for entry in held where released.contains(entry.track.ssrc) {
            if let event = place(entry.frame, track: entry.track) { events.append(event) }
        }
        held.removeAll { released.contains($0.track.ssrc) }
        return events
    }
}

/// What one track's receive path counted.
public struct TrackStatistics: Sendable, Equatable {
    public var buffer: JitterBufferStatistics
    public var malformedPackets: Int
    public var lastMalformedReason: String?
    public var wrongPayloadType: Int
    public var bytesReceived: Int
    /// Packets that came again on the track's RTX stream (RFC 4588) after a NACK.
    public var retransmittedPackets: Int
    public var firstArrival: Double?
    public var lastArrival: Double?
    public var senderReports: Int
    /// Least `arrival − sender time` since the first sender report.
    public var leastDelay: Double?
    /// The track said BYE.
    public var ended: Bool
}
