import RTP

/// Puts one stream's packets back in order, finds losses, and assembles whole frames.
///
/// It is a plain state machine: `insert` and `poll` take the current time and return actions,
/// so tests drive it with an invented clock and the same code serves fixtures (capture times)
/// and live rooms (the wall clock).
///
/// - Packets are released in sequence order. A missing packet is waited for up to
///   `lossTimeout`, NACKed meanwhile, and then declared lost.
/// - A frame is released only when every packet from its first to its last (marker) is present.
///   A frame with a packet missing is dropped, never passed on.
/// - Video (`requiresKeyframes`): after a loss, no frame is released until the next keyframe,
///   because the frames in between may reference what was lost. A picture that freezes is fine;
///   garbage is not. The buffer asks for a keyframe (PLI), at most every `keyframeRequestInterval`.
public struct JitterBuffer: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// How long a missing packet is waited for before it is declared lost.
        public var lossTimeout: Double
        /// Frames are single packets (audio) rather than marker-delimited runs (video).
        public var framePerPacket: Bool
        /// Whether decoding must restart at a keyframe after a loss (video).
        public var requiresKeyframes: Bool
        /// The least time between two keyframe requests.
        public var keyframeRequestInterval: Double
        /// NACK a missing packet again after this long, up to `maxNackAttempts` times.
        public var nackRetryInterval: Double
        public var maxNackAttempts: Int
        /// A forward jump bigger than this is a restart of the stream, not a loss.
        public var maxSequenceGap: Int64
        /// Packets held at most; beyond it the oldest gap is declared lost at once.
        public var maxBufferedPackets: Int

        public init(lossTimeout: Double = 0.15, framePerPacket: Bool, requiresKeyframes: Bool,
                    keyframeRequestInterval: Double = 0.5, nackRetryInterval: Double = 0.05, maxNackAttempts: Int = 3,
                    maxSequenceGap: Int64 = 3000, maxBufferedPackets: Int = 4000)
        {
            self.lossTimeout = lossTimeout
            self.framePerPacket = framePerPacket
            self.requiresKeyframes = requiresKeyframes
            self.keyframeRequestInterval = keyframeRequestInterval
            self.nackRetryInterval = nackRetryInterval
            self.maxNackAttempts = maxNackAttempts
            self.maxSequenceGap = maxSequenceGap
            self.maxBufferedPackets = maxBufferedPackets
        }

        public static let video = Configuration(framePerPacket: false, requiresKeyframes: true)
        public static let audio = Configuration(lossTimeout: 0.1, framePerPacket: true, requiresKeyframes: false)
    }

    /// A packet after depacketizing, with its unwrapped numbers.
    public struct Packet: Sendable, Equatable {
        public var sequence: Int64
        public var timestamp: Int64
        public var marker: Bool
        public var data: [UInt8]
        public var isFrameStart: Bool
        public var isKeyframe: Bool
        /// The depacketizer's reading of the payload's temporal layer (VP8's TID and Y).
        public var temporalLayer: TemporalLayer?

        public init(sequence: Int64, timestamp: Int64, marker: Bool, data: [UInt8], isFrameStart: Bool, isKeyframe: Bool,
                    temporalLayer: TemporalLayer? = nil)
        {
            self.sequence = sequence
            self.timestamp = timestamp
            self.marker = marker
            self.data = data
            self.isFrameStart = isFrameStart
            self.isKeyframe = isKeyframe
            self.temporalLayer = temporalLayer
        }
    }

    /// A whole frame, in decode order.
    public struct Frame: Sendable, Equatable {
        public var timestamp: Int64
        public var firstSequence: Int64
        public var lastSequence: Int64
        public var data: [UInt8]
        public var isKeyframe: Bool
        /// Packets lost since the previous frame released (audio uses it to conceal).
        public var lostBefore: Int
        /// The temporal layer its first packet says it is in (RFC 7741 §4.2: a frame's packets
        /// all say the same); nil when it says none.
        public var temporalLayer: TemporalLayer?

        public init(timestamp: Int64, firstSequence: Int64, lastSequence: Int64, data: [UInt8], isKeyframe: Bool,
                    lostBefore: Int = 0, temporalLayer: TemporalLayer? = nil)
        {
            self.timestamp = timestamp
            self.firstSequence = firstSequence
            self.lastSequence = lastSequence
            self.data = data
            self.isKeyframe = isKeyframe
            self.lostBefore = lostBefore
            self.temporalLayer = temporalLayer
        }
    }

    public enum Action: Sendable, Equatable {
        /// A whole frame to decode.
        case frame(Frame)
        /// Ask the sender to resend these sequence numbers (RTCP generic NACK).
        case sendNack([Int64])
        /// Ask the sender for a keyframe (RTCP PLI).
        case requestKeyframe
    }

    public enum State: Sendable, Equatable {
        /// Nothing released yet; video waits for its first keyframe.
        case starting
        /// Frames flow.
        case running
        /// A loss happened; video waits for a keyframe.
        case awaitingKeyframe
    }

    public let configuration: Configuration
    public private(set) var state: State = .starting
    public private(set) var statistics = JitterBufferStatistics()

    private var packets: [Int64: Packet] = [:]
    /// The first sequence number not yet released, dropped or declared lost.
    private var nextSequence: Int64?
    private var highestSequence: Int64?
    /// Missing sequence numbers: when each was noticed, and NACK bookkeeping.
    private var missing: [Int64: MissingPacket] = [:]
    /// Sequence numbers declared lost (kept briefly to tell late arrivals from duplicates).
    private var declaredLost: Set<Int64> = []
    /// The last released packet ended a frame, so the next one starts a frame.
    private var previousEndedFrame = false
    private var lostSinceLastFrame = 0
    private var lastKeyframeRequest: Double?
    private var lastIncompleteTimestamp: Int64?

    private struct MissingPacket: Sendable {
        var noticed: Double
        var lastNack: Double
        var nacks: Int
    }

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Whether `sequence` is awaited: found missing, and neither arrived nor declared lost yet.
    public func isMissing(_ sequence: Int64) -> Bool { missing[sequence] != nil }

    /// Adds a packet that arrived at `now`, and returns what can happen as a result.
    public mutating func insert(_ packet: Packet, at now: Double) -> [Action] {
        statistics.packetsReceived += 1
        var actions: [Action] = []
        let sequence = packet.sequence
        if let next = nextSequence, sequence < next {
            if declaredLost.contains(sequence) {
                statistics.packetsLate += 1
            } else {
                statistics.packetsDuplicated += 1
            }
            return actions
        }
        if packets[sequence] != nil {
            statistics.packetsDuplicated += 1
            return actions
        }
        if let highest = highestSequence {
            if sequence < highest {
                statistics.packetsReordered += 1
                missing[sequence] = nil
            } else if sequence - highest > configuration.maxSequenceGap {
                // The stream restarted (new sequence space): nothing in between was lost.
                statistics.restarts += 1
                dropEverything()
                nextSequence = sequence
                if configuration.requiresKeyframes {
                    state = .awaitingKeyframe
                    requestKeyframe(at: now, into: &actions)
                }
            } else if sequence > highest + 1 {
                var newlyMissing: [Int64] = []
                for gap in (highest + 1)..<sequence {
                    missing[gap] = MissingPacket(noticed: now, lastNack: now, nacks: 1)
                    newlyMissing.append(gap)
                }
                statistics.packetsNacked += newlyMissing.count
                actions.append(.sendNack(newlyMissing))
            }
        }
        if nextSequence == nil { nextSequence = sequence }
        highestSequence = max(highestSequence ?? sequence, sequence)
        packets[sequence] = packet
        drain(at: now, into: &actions)
        return actions
    }

    /// Lets time pass: resends NACKs, declares timed-out packets lost, and releases what that
    /// unblocks.
    public mutating func poll(at now: Double) -> [Action] {
        var actions: [Action] = []
        var again: [Int64] = []
        for (sequence, var entry) in missing where entry.nacks < configuration.maxNackAttempts
            && now - entry.lastNack >= configuration.nackRetryInterval
            && now - entry.noticed < configuration.lossTimeout
        {
            entry.nacks += 1
            entry.lastNack = now
            missing[sequence] = entry
            again.append(sequence)
        }
        if !again.isEmpty {
            statistics.packetsNacked += again.count
            actions.append(.sendNack(again.sorted()))
        }
        drain(at: now, into: &actions)
        return actions
    }

    /// The stream ended: release every whole frame still held and count the gaps as lost.
    public mutating func flush() -> [Action] {
        var actions: [Action] = []
        drain(at: .infinity, into: &actions)
        return actions
    }

    /// When the next timeout falls, so a live caller knows when to `poll`.
    public var nextDeadline: Double? {
        missing.values.map { $0.noticed + configuration.lossTimeout }.min()
    }

    // MARK: - Release

    private mutating func drain(at now: Double, into actions: inout [Action]) {
        while let next = nextSequence, let highest = highestSequence, next <= highest {
            if packets[next] == nil {
                guard givenUp(next, at: now) else { return }
                declareLost(next)
                continue
            }
            guard releaseFrame(startingAt: next, at: now, into: &actions) else { return }
        }
    }

    /// Whether a missing packet is no longer waited for.
    private func givenUp(_ sequence: Int64, at now: Double) -> Bool {
        if now == .infinity { return true } // flushing: nothing more will come
        if packets.count > configuration.maxBufferedPackets { return true }
        guard let entry = missing[sequence] else { return false } // not due yet
        return now - entry.noticed >= configuration.lossTimeout
    }

    /// Tries to release the frame that begins at `start`. Returns false when it must wait for a
    /// packet that may still come.
    private mutating func releaseFrame(startingAt start: Int64, at now: Double, into actions: inout [Action]) -> Bool {
        guard let head = packets[start] else { return false }
        guard configuration.framePerPacket || previousEndedFrame || head.isFrameStart else {
            // The rest of a frame whose beginning was lost.
            dropBrokenFrame(from: start)
            return true
        }
        var end = start
        var data = head.data
        var keyframe = head.isKeyframe
        if !configuration.framePerPacket {
            while !(packets[end]?.marker ?? false) {
                let following = end + 1
                guard let packet = packets[following] else {
                    let streamEnded = now == .infinity && following > (highestSequence ?? following)
                    guard streamEnded || givenUp(following, at: now) else { return false }
                    // A packet of this frame is lost: the frame cannot be decoded.
                    dropBrokenFrame(from: start)
                    return true
                }
                if packet.timestamp != head.timestamp {
                    // The marker packet never came, but the next frame did: this frame has ended.
                    break
                }
                end = following
                data += packet.data
                keyframe = keyframe || packet.isKeyframe
            }
        }
        for sequence in start...end {
            packets[sequence] = nil
            missing[sequence] = nil
        }
        nextSequence = end + 1
        previousEndedFrame = true
        statistics.framesAssembled += 1
        let frame = Frame(timestamp: head.timestamp, firstSequence: start, lastSequence: end, data: data,
                          isKeyframe: keyframe, lostBefore: lostSinceLastFrame, temporalLayer: head.temporalLayer)
        lostSinceLastFrame = 0
        emit(frame, at: now, into: &actions)
        return true
    }

    private mutating func emit(_ frame: Frame, at now: Double, into actions: inout [Action]) {
        guard configuration.requiresKeyframes else {
            state = .running
            statistics.framesReleased += 1
            actions.append(.frame(frame))
            return
        }
        if state != .running {
            guard frame.isKeyframe else {
                statistics.framesSkippedAwaitingKeyframe += 1
                requestKeyframe(at: now, into: &actions)
                return
            }
            state = .running
        }
        if frame.isKeyframe { statistics.keyframes += 1 }
        statistics.framesReleased += 1
        actions.append(.frame(frame))
    }

    /// Drops the held packets of a frame that cannot be completed, from `start` to the frame's
    /// end or to the next gap, whichever comes first.
    private mutating func dropBrokenFrame(from start: Int64) {
        guard let head = packets[start] else { return }
        var sequence = start
        var endedAtBoundary = false
        while let packet = packets[sequence] {
            if packet.timestamp != head.timestamp {
                endedAtBoundary = true
                break
            }
            packets[sequence] = nil
            missing[sequence] = nil
            sequence += 1
            if packet.marker {
                endedAtBoundary = true
                break
            }
        }
        nextSequence = sequence
        previousEndedFrame = endedAtBoundary
        // One frame can be dropped in pieces (around each gap); count it once.
        if lastIncompleteTimestamp != head.timestamp {
            statistics.framesIncomplete += 1
            lastIncompleteTimestamp = head.timestamp
        }
        if configuration.requiresKeyframes && state == .running { state = .awaitingKeyframe }
    }

    private mutating func declareLost(_ sequence: Int64) {
        missing[sequence] = nil
        declaredLost.insert(sequence)
        if declaredLost.count > 4096, let oldest = declaredLost.min() { declaredLost.remove(oldest) }
        statistics.packetsLost += 1
        lostSinceLastFrame += 1
        nextSequence = sequence + 1
        // Nobody can tell whether the lost packet ended a frame.
        previousEndedFrame = false
        if configuration.requiresKeyframes && state == .running { state = .awaitingKeyframe }
    }

    private mutating func requestKeyframe(at now: Double, into actions: inout [Action]) {
        if let last = lastKeyframeRequest, now - last < configuration.keyframeRequestInterval { return }
        lastKeyframeRequest = now
        statistics.keyframeRequests += 1
        actions.append(.requestKeyframe)
    }

    private mutating func dropEverything() {
        packets.removeAll()
        missing.removeAll()
        previousEndedFrame = false
    }
}

/// What a jitter buffer counted.
public struct JitterBufferStatistics: Sendable, Equatable, Codable {
    public var packetsReceived = 0
    /// Declared lost after `lossTimeout` (or at the end of the stream).
    public var packetsLost = 0
    /// Arrived after a packet with a higher sequence number.
    public var packetsReordered = 0
    public var packetsDuplicated = 0
    /// Arrived after being declared lost.
    public var packetsLate = 0
    /// NACK requests sent (a packet asked for twice counts twice).
    public var packetsNacked = 0
    /// Frames whose packets were all present.
    public var framesAssembled = 0
    /// Frames dropped because a packet was missing.
    public var framesIncomplete = 0
    /// Whole frames not released because the decoder waits for a keyframe after a loss.
    public var framesSkippedAwaitingKeyframe = 0
    /// Frames released to the decoder.
    public var framesReleased = 0
    public var keyframes = 0
    public var keyframeRequests = 0
    /// Sequence-number restarts seen.
    public var restarts = 0

    public init() {}
}
