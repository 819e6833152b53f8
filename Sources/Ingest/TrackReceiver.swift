import Media
import MediaSource
import RTP

/// What the session knows about one incoming track.
public struct TrackInfo: Sendable, Equatable {
    public typealias Kind = TrackKind
    public typealias Codec = TrackCodec

    public var ssrc: UInt32
    public var participantID: String
    public var kind: Kind
    public var codec: Codec
    public var payloadType: UInt8
    public var clockRate: Int
    public var channels: Int
    /// Its RTX stream and payload type (RFC 4588), when it has one: retransmissions come there.
    public var rtxSSRC: UInt32?
    public var rtxPayloadType: UInt8?

    public init(ssrc: UInt32, participantID: String, kind: Kind, codec: Codec, payloadType: UInt8, clockRate: Int,
                channels: Int = 1, rtxSSRC: UInt32? = nil, rtxPayloadType: UInt8? = nil)
    {
        self.rtxSSRC = rtxSSRC
        self.rtxPayloadType = rtxPayloadType
        self.ssrc = ssrc
        self.participantID = participantID
        self.kind = kind
        self.codec = codec
        self.payloadType = payloadType
        self.clockRate = clockRate
        self.channels = channels
    }

    /// A published track of a participant.
    public init(_ track: TrackDescription, participantID: String) {
        self.init(ssrc: track.ssrc, participantID: participantID, kind: track.kind, codec: track.codec,
                  payloadType: track.payloadType, clockRate: track.clockRate, channels: track.channels,
                  rtxSSRC: track.rtxSSRC, rtxPayloadType: track.rtxPayloadType)
    }
}

/// One track's receive path: RTP packet → depacketizer → jitter buffer → whole frames.
struct TrackReceiver: Sendable {
    let info: TrackInfo
    private var depacketizer: any Depacketizer
    private var sequences = SequenceUnwrapper()
    private var timestamps = TimestampUnwrapper()
    private(set) var buffer: JitterBuffer
    private(set) var malformedPackets = 0
    private(set) var lastMalformedReason: String?
    private(set) var wrongPayloadType = 0
    private(set) var bytesReceived = 0
    /// Packets that came again on the RTX stream (RFC 4588) after a NACK and filled a gap
    /// (duplicates, and those that came after being declared lost, are not counted).
    private(set) var retransmittedPackets = 0
    private(set) var firstArrival: Double?
    private(set) var lastArrival: Double?
    private(set) var ended = false
    private(set) var reception: ReceptionStatistics

    init(info: TrackInfo, jitter: JitterBuffer.Configuration? = nil) {
        self.info = info
        switch info.codec {
        case .vp8: depacketizer = VP8Depacketizer()
        case .h264: depacketizer = H264Depacketizer()
        case .opus: depacketizer = OpusDepacketizer()
        }
        buffer = JitterBuffer(configuration: jitter ?? (info.kind.isVideo ? .video : .audio))
        reception = ReceptionStatistics(clockRate: info.clockRate)
    }

    /// Unwraps a packet's numbers without consuming it (for the media clock).
    mutating func unwrappedTimestamp(_ packet: RTPPacket) -> Int64 {
        timestamps.unwrap(packet.timestamp)
    }

    /// `retransmitted`: it came on the RTX stream, unwrapped (its late arrival says nothing about
    /// the path's jitter).
    mutating func receive(_ packet: RTPPacket, timestamp: Int64, arrival: Double, retransmitted: Bool = false) -> [JitterBuffer.Action] {
        firstArrival = firstArrival ?? arrival
        lastArrival = arrival
        bytesReceived += packet.payload.count
        guard packet.payloadType == info.payloadType else {
            wrongPayloadType += 1
            return []
        }
        let sequence = sequences.unwrap(packet.sequenceNumber)
        if retransmitted {
            // Counted when it fills a gap; one whose original came after all, or that was
            // declared lost already, the buffer counts as a duplicate or late.
            if buffer.isMissing(sequence) {
                retransmittedPackets += 1
                reception.observeRetransmission(sequence: sequence)
            }
        } else {
            reception.observe(sequence: sequence, timestamp: packet.timestamp, arrival: arrival)
        }
        let payload: DepacketizedPayload
        do {
            payload = try depacketizer.depacketize(packet.payload)
        } catch {
            malformedPackets += 1
            lastMalformedReason = error.description
            return []
        }
        var actions = buffer.insert(
            JitterBuffer.Packet(sequence: sequence, timestamp: timestamp, marker: packet.marker, data: payload.data,
                                isFrameStart: payload.isFrameStart, isKeyframe: payload.isKeyframe, temporalLayer: payload.temporalLayer),
            at: arrival)
        finishFrames(&actions)
        return actions
    }

    mutating func poll(at now: Double) -> [JitterBuffer.Action] {
        var actions = buffer.poll(at: now)
        finishFrames(&actions)
        return actions
    }

    mutating func flush() -> [JitterBuffer.Action] {
        var actions = buffer.flush()
        finishFrames(&actions)
        return actions
    }

    mutating func markEnded() { ended = true }

    mutating func observeSenderReport(_ ntp: NTPTimestamp, arrival: Double) {
        reception.observeSenderReport(ntp, arrival: arrival)
    }

    mutating func receptionReport(now: Double) -> RTCPReceptionReport? {
        reception.report(ssrc: info.ssrc, now: now)
    }

    /// Lets the codec fix up each released frame (H.264 parameter sets), in decode order.
    private mutating func finishFrames(_ actions: inout [JitterBuffer.Action]) {
        for index in actions.indices {
            if case .frame(var frame) = actions[index] {
                frame.data = depacketizer.completeFrame(frame.data, isKeyframe: frame.isKeyframe)
                actions[index] = .frame(frame)
            }
        }
    }
}
