import Fixture
import Foundation
import MediaSource
import TestSupport
import Testing

/// A source that hands over a script of items, then `.ended`; it keeps the feedback it is sent.
final class ScriptedSource: MediaSource {
    let participants: [ParticipantDescription]
    var duration: Double? { nil }
    private var items: [SourceItem]
    private(set) var feedback: [Feedback] = []

    init(participants: [ParticipantDescription], items: [SourceItem]) {
        self.participants = participants
        self.items = items
    }

    func next(until deadline: Double) -> SourceItem { items.isEmpty ? .ended : items.removeFirst() }
    func send(_ feedback: Feedback) { self.feedback.append(feedback) }
}

/// A capture around a source: the items and the feedback pass through unchanged, and the
/// directory it writes is the fixture of what passed.
@Suite struct CapturingSourceTests {
    /// Every item of a source, in order, until it ends.
    static func drain(_ source: any MediaSource) -> [SourceItem] {
        var items: [SourceItem] = []
        var deadline = 0.0
        while true {
            let item = source.next(until: deadline)
            switch item {
            case .ended: return items
            case .idle(let now): deadline = now + 0.25
            default: items.append(item)
            }
        }
    }

    /// A fixture replayed through a capture comes out as the same fixture: the same manifest
    /// (events and all), the same datagrams at the same times.
    @Test(arguments: ["example", "room-changes"])
    func aReplayedFixtureIsCapturedAsItself(name: String) throws {
        let original = try Fixture(directory: TestFixtures.path(name))
        let directory = try TemporaryDirectory(prefix: "capture")
        let capture = try CapturingSource(FixtureSource(FixtureReplay(fixture: original, pacing: .asFastAsPossible)),
                                          directory: directory.file("out"))
        let passed = Self.drain(capture)
        #expect(passed.count == original.packets.count + original.manifest.events.count)
        let manifest = try capture.finish()
        #expect(capture.writer.notes.isEmpty, "\(capture.writer.notes)")
        #expect(manifest == original.manifest)

        let captured = try Fixture(directory: directory.file("out"))
        #expect(captured.warnings.isEmpty, "\(captured.warnings)")
        #expect(captured.manifest == original.manifest)
        #expect(captured.packets.map(\.payload) == original.packets.map(\.payload))
        let drift = zip(captured.packets, original.packets).map { abs($0.arrival - $1.arrival) }.max() ?? 0
        #expect(drift < 1e-6, "arrival times moved by up to \(drift) s")
        #expect(capture.writer.counts.datagrams == original.packets.count)
        #expect(capture.writer.counts.events == original.manifest.events.count)
    }

    /// The manifest is rewritten as the room changes, so a capture that is never finished (a
    /// killed `revue capture`) is a fixture of what it saw so far.
    @Test func anUnfinishedCaptureIsAFixtureOfWhatItSaw() throws {
        let original = try Fixture(directory: TestFixtures.path("room-changes"))
        let directory = try TemporaryDirectory(prefix: "capture")
        let capture = try CapturingSource(FixtureSource(FixtureReplay(fixture: original, pacing: .asFastAsPossible)),
                                          directory: directory.path)
        // Up to just after carol's camera goes off at 5 s.
        var deadline = 0.0
        while deadline < 5.5 {
            if case .idle(let now) = capture.next(until: deadline) { deadline = now + 0.25 }
        }
        let partial = try Fixture(directory: directory.path)
        #expect(partial.manifest.everyone == ["erin", "frank", "carol"])
        #expect(partial.manifest.events.map(\.at) == [3.0, 5.0])
        #expect(partial.captureDuration > 5 && partial.captureDuration < 5.5)
    }

    @Test func feedbackGoesToTheWrappedSource() throws {
        let directory = try TemporaryDirectory(prefix: "capture")
        let inner = ScriptedSource(participants: [ParticipantDescription(id: "a", name: "A")], items: [])
        let capture = try CapturingSource(inner, directory: directory.path)
        capture.send(.pictureLossIndication(ssrc: 7))
        capture.send(.nack(ssrc: 7, sequenceNumbers: [1, 2]))
        #expect(inner.feedback == [.pictureLossIndication(ssrc: 7), .nack(ssrc: 7, sequenceNumbers: [1, 2])])
        #expect(capture.participants == inner.participants)
    }

    @Test func anExistingFixtureIsNotOverwritten() throws {
        let directory = try TemporaryDirectory(prefix: "capture")
        let source = ScriptedSource(participants: [ParticipantDescription(id: "a", name: "A")], items: [])
        _ = try CapturingSource(source, directory: directory.path)
        #expect(throws: FixtureError.self) { try CapturingSource(source, directory: directory.path) }
    }

    @Test func aCaptureOfNothingSaysSo() throws {
        let directory = try TemporaryDirectory(prefix: "capture")
        let capture = try CapturingSource(ScriptedSource(participants: [ParticipantDescription(id: "a", name: "A")], items: []),
                                          directory: directory.path)
        _ = Self.drain(capture)
        #expect(throws: FixtureError.self) { try capture.finish() }
    }

    /// An item with its time as bits, so items with NaN times compare equal to themselves.
    static func key(_ item: SourceItem) -> String {
        switch item {
        case .datagram(let bytes, let arrival): "datagram \(bytes.count) \(bytes.hashValue) \(arrival.bitPattern)"
        case .event(let event, let at): "event \(event) \(at.bitPattern)"
        case .idle(let now): "idle \(now.bitPattern)"
        case .caption(let caption): "caption \(caption)"
        case .captionsExpected: "captions expected"
        case .ended: "ended"
        }
    }

    /// 2,000 random scripts of odd items (empty, one-byte, oversized and random datagrams; times
    /// that are NaN, infinite, negative or go back; events about nobody, repeated joins, SSRCs
    /// that never send): the capture never crashes, passes every item on, and whenever it
    /// finishes, the directory loads as a fixture.
    @Test func oddInputStillMakesAFixtureOrSaysWhyNot() throws {
        var generator = SeededGenerator(seed: 31)
        let ids = ["a", "b", "c", ""]
        var loaded = 0
        for round in 0..<2000 {
            func pick<T>(_ values: [T]) -> T { values[Int(generator.next() % UInt64(values.count))] }
            func track() -> TrackDescription {
                let video = generator.next() % 2 == 0
                return TrackDescription(kind: video ? pick([.video, .share]) : .audio, ssrc: UInt32(generator.next() % 6),
                                        codec: video ? .vp8 : .opus, payloadType: video ? 96 : 111, clockRate: video ? 90000 : 48000)
            }
            func participant() -> ParticipantDescription {
                ParticipantDescription(id: pick(ids), name: pick(["A", "B", "", "Ünï ☃"]), tracks: (0..<generator.next() % 3).map { _ in track() })
            }
            func time() -> Double { pick([Double.nan, .infinity, -.infinity, -1, 0, 0.5, 1e12, Double(generator.next() % 100) / 10]) }
            var items: [SourceItem] = []
            for _ in 0..<(generator.next() % 40) {
                switch generator.next() % 8 {
                case 0: items.append(.datagram([], arrival: time()))
                case 1: items.append(.datagram(generator.bytes(Int(generator.next() % 3)), arrival: time()))
                case 2: items.append(.datagram([UInt8](repeating: 0x80, count: PcapFileWriter.maximumPayload + 1), arrival: time()))
                case 3, 4:
                    // RTP from one of the SSRCs the tracks use.
                    let ssrc = UInt8(generator.next() % 6)
                    items.append(.datagram([0x80, 96, 0, 1, 0, 0, 0, 1, 0, 0, 0, ssrc] + generator.bytes(Int(generator.next() % 20)), arrival: time()))
                case 5: items.append(.datagram([0x80, 200] + generator.bytes(Int(generator.next() % 30)), arrival: time()))
                case 6: items.append(.idle(now: time()))
                default:
                    let id = pick(ids)
                    let event: RoomEvent = pick([
                        .join(participant()), .leave(participantID: id), .publish(participantID: id, track: track()),
                        .unpublish(participantID: id, ssrc: UInt32(generator.next() % 6)), .rename(participantID: id, name: pick(["X", ""])),
                        .pin(participantID: id), .unpin(participantID: id), .activeSpeaker(participantID: id),
                    ])
                    items.append(.event(event, at: time()))
                }
            }
            let directory = try TemporaryDirectory(prefix: "capture-fuzz")
            let start = round % 3 == 0 ? (0..<generator.next() % 3).map { _ in participant() } : []
            let capture = try CapturingSource(ScriptedSource(participants: start, items: items), directory: directory.path,
                                              startTime: pick([0, 1_700_000_000.5, Double(UInt32.max), .nan]))
            var passed: [SourceItem] = []
            while true {
                let item = capture.next(until: 0)
                if item == .ended { break }
                passed.append(item)
            }
            #expect(passed.map(Self.key) == items.map(Self.key))
            guard let manifest = try? capture.finish() else { continue }
            let fixture = try Fixture(directory: directory.path)
            #expect(fixture.manifest == manifest)
            #expect(try FixtureManifest(json: Array(manifest.jsonText.utf8)) == manifest)
            loaded += 1
        }
        // Enough scripts make a fixture for the check above to mean something.
        #expect(loaded > 200, "only \(loaded) of 2000 scripts made a fixture")
    }
}
