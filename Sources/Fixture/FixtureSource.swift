import Foundation
import MediaSource

/// A fixture as a media source: its datagrams and its manifest's events in time order, paced as
/// its replay says, and a log of the feedback the pipeline sends back (a fixture has nobody to
/// ask for a keyframe, so the requests are counted: tests assert on them).
///
/// A looped replay repeats the events of each pass, shifted by the pass length, so a fixture
/// whose third participant joins and leaves does so in every pass.
public final class FixtureSource: MediaSource {
    /// What the pipeline asked for, by kind and SSRC.
    public struct FeedbackLog: Sendable, Equatable {
        public var pictureLossIndications: [UInt32: Int] = [:]
        public var fullIntraRequests: [UInt32: Int] = [:]
        /// NACK messages, and the sequence numbers they named, per SSRC.
        public var nackMessages: [UInt32: Int] = [:]
        public var nackedPackets: [UInt32: Int] = [:]
        /// Receiver reports, and the report blocks in them.
        public var receiverReports = 0
        public var reportBlocks = 0
        /// The latest report block for each SSRC.
        public var latestReports: [UInt32: RTPReceptionSummary] = [:]

        public init() {}
    }

    /// The fields of a report block a test reads.
    public struct RTPReceptionSummary: Sendable, Equatable {
        public var cumulativeLost: Int32
        public var extendedHighestSequence: UInt32
        public var jitter: UInt32
    }

    public let replay: FixtureReplay
    public private(set) var feedback = FeedbackLog()
    private var packets: FixtureReplay.Iterator
    private var nextPacket: Fixture.Packet?
    private var pass = 0
    private var eventIndex = 0
    private var finished = false
    /// Uptime (ns) of source time zero, for a paced replay; set by the first call.
    private var started: UInt64?

    public init(_ replay: FixtureReplay) {
        self.replay = replay
        packets = replay.makeIterator()
        nextPacket = packets.next()?.packet
    }

    public var participants: [ParticipantDescription] { replay.fixture.manifest.participants }
    public var duration: Double? { replay.duration }

    public func next(until deadline: Double) -> SourceItem {
        if replay.pacing == .realtime && started == nil { started = DispatchTime.now().uptimeNanoseconds }
        let event = nextEvent()
        guard event != nil || nextPacket != nil else { return .ended }
        let due = min(event?.at ?? .infinity, nextPacket?.arrival ?? .infinity)
        if due > deadline {
            wait(until: deadline)
            return .idle(now: deadline)
        }
        wait(until: due)
        // An event comes before a packet of the same time, so a track is published before its
        // first packet arrives.
        if let event, event.at <= nextPacket?.arrival ?? .infinity {
            eventIndex += 1
            return .event(event.event, at: event.at)
        }
        guard let packet = nextPacket else { return .ended }
        nextPacket = packets.next()?.packet
        return .datagram(packet.payload, arrival: packet.arrival)
    }

    public func send(_ feedback: Feedback) {
        switch feedback {
        case .pictureLossIndication(let ssrc): self.feedback.pictureLossIndications[ssrc, default: 0] += 1
        case .fullIntraRequest(let ssrc): self.feedback.fullIntraRequests[ssrc, default: 0] += 1
        case .nack(let ssrc, let sequenceNumbers):
            self.feedback.nackMessages[ssrc, default: 0] += 1
            self.feedback.nackedPackets[ssrc, default: 0] += sequenceNumbers.count
        case .receiverReport(let blocks):
            self.feedback.receiverReports += 1
            self.feedback.reportBlocks += blocks.count
            for block in blocks {
                self.feedback.latestReports[block.ssrc] = RTPReceptionSummary(
                    cumulativeLost: block.cumulativeLost, extendedHighestSequence: block.extendedHighestSequence, jitter: block.jitter)
            }
        }
    }

    /// The next event of the current or a later pass, shifted to its pass.
    private func nextEvent() -> TimedRoomEvent? {
        let events = replay.fixture.manifest.events
        guard !events.isEmpty else { return nil }
        while true {
            if replay.passes.map({ pass >= $0 }) ?? false { return nil }
            if eventIndex < events.count {
                var event = events[eventIndex]
                event.at += Double(pass) * replay.passLength
                return event
            }
            pass += 1
            eventIndex = 0
        }
    }

    private func wait(until time: Double) {
        guard let started else { return }
        FixtureReplay.sleep(untilUptime: started + UInt64(max(0, time) * 1e9))
    }
}
