import Fixture
import Foundation
import MediaSource
import TestSupport
import Testing

/// A fixture as a media source: datagrams and events in time order, idle when the next thing is
/// later than the deadline, feedback counted.
@Suite struct FixtureSourceTests {
    @Test func eventsComeBeforeTheDatagramsOfTheirTime() throws {
        let fixture = try Fixture(directory: TestFixtures.path("room-changes"))
        let source = FixtureSource(FixtureReplay(fixture: fixture, pacing: .asFastAsPossible))
        #expect(source.participants.map(\.id) == ["erin", "frank"])
        var items: [SourceItem] = []
        var deadline = 0.0
        loop: while true {
            let item = source.next(until: deadline)
            switch item {
            case .ended: break loop
            case .idle(let now):
                #expect(now == deadline)
                deadline += 0.25
            default: items.append(item)
            }
        }
        let events = items.compactMap { if case .event(let event, let at) = $0 { (event, at) } else { nil } }
        #expect(events.map(\.1) == [3.0, 5.0, 6.0, 8.0, 9.0, 10.5])
        // Nothing arrives after its deadline, and carol's first packet comes after her join.
        var last = -1.0
        var joined = false
        for item in items {
            switch item {
            case .datagram(let bytes, let arrival):
                #expect(arrival >= last)
                last = arrival
                if bytes.count >= 12, !(192...223).contains(bytes[1]),
                   UInt32(bytes[8]) << 24 | UInt32(bytes[9]) << 16 | UInt32(bytes[10]) << 8 | UInt32(bytes[11]) == 7521
                {
                    #expect(joined, "ssrc 7521 before carol joined")
                }
            case .event(let event, let at):
                #expect(at >= last)
                last = at
                if case .join(let participant) = event, participant.id == "carol" { joined = true }
            default: break
            }
        }
        #expect(items.count == fixture.packets.count + 6)
    }

    @Test func aLoopedReplayRepeatsTheEventsOfEachPass() throws {
        let fixture = try Fixture(directory: TestFixtures.path("room-changes"))
        let replay = FixtureReplay(fixture: fixture, pacing: .asFastAsPossible, passes: 2)
        let source = FixtureSource(replay)
        var times: [Double] = []
        while true {
            let item = source.next(until: .infinity)
            if case .ended = item { break }
            if case .event(_, let at) = item { times.append(at) }
        }
        let first = [3.0, 5.0, 6.0, 8.0, 9.0, 10.5]
        #expect(times.count == 12)
        for (seen, wanted) in zip(times, first + first.map { $0 + replay.passLength }) { #expect(abs(seen - wanted) < 1e-9) }
    }

    @Test func feedbackIsCounted() throws {
        let source = FixtureSource(FixtureReplay(fixture: try Fixture(directory: TestFixtures.path("example")), pacing: .asFastAsPossible))
        source.send(.pictureLossIndication(ssrc: 7001))
        source.send(.pictureLossIndication(ssrc: 7001))
        source.send(.fullIntraRequest(ssrc: 7011))
        source.send(.nack(ssrc: 7001, sequenceNumbers: [4, 5, 9]))
        source.send(.receiverReport([.init(ssrc: 7001, cumulativeLost: 3, extendedHighestSequence: 100)]))
        #expect(source.feedback.pictureLossIndications == [7001: 2])
        #expect(source.feedback.fullIntraRequests == [7011: 1])
        #expect(source.feedback.nackMessages == [7001: 1] && source.feedback.nackedPackets == [7001: 3])
        #expect(source.feedback.latestReports[7001]?.cumulativeLost == 3)
    }
}
