import Decode
import Fixture
import Foundation
import Ingest
import Pipeline
import RTP
import TestSupport
import Testing

/// The example fixture with 3% of its RTP packets dropped and 5% of each stream's neighbours
/// swapped, from a seeded generator.
@Suite struct DegradedFixtureTests {
    struct Degraded {
        let fixture: Fixture
        /// Unwrapped sequence numbers dropped, per SSRC.
        let dropped: [UInt32: Set<Int64>]
        let swaps: Int
    }

    static func degrade(_ fixture: Fixture, seed: UInt64) -> Degraded {
        var generator = SeededGenerator(seed: seed)
        var packets = fixture.packets
        // Indices of each stream's RTP packets, in capture order, with unwrapped sequence numbers.
        var streams: [UInt32: [(index: Int, sequence: Int64)]] = [:]
        var unwrappers: [UInt32: SequenceUnwrapper] = [:]
        for (index, packet) in packets.enumerated() where !RTPPacket.looksLikeRTCP(packet.payload) {
            guard let rtp = try? RTPPacket(parsing: packet.payload) else { continue }
            let sequence = unwrappers[rtp.ssrc, default: SequenceUnwrapper()].unwrap(rtp.sequenceNumber)
            streams[rtp.ssrc, default: []].append((index, sequence))
        }
        // Swap neighbours within a stream: the later packet arrives at the earlier one's time.
        var swaps = 0
        for (_, entries) in streams.sorted(by: { $0.key < $1.key }) {
            var position = 0
            while position + 1 < entries.count {
                if generator.next() % 100 < 5 {
                    let (first, second) = (entries[position].index, entries[position + 1].index)
                    let payload = packets[first].payload
                    packets[first].payload = packets[second].payload
                    packets[second].payload = payload
                    swaps += 1
                    position += 2
                } else {
                    position += 1
                }
            }
        }
        // Drop 3% of RTP packets.
        var dropped: [UInt32: Set<Int64>] = [:]
        var drop = Set<Int>()
        // In SSRC order, so a seed always drops the same packets.
        for (ssrc, entries) in streams.sorted(by: { $0.key < $1.key }) {
            for entry in entries where generator.next() % 100 < 3 {
                // After a swap the packet at this index may be the neighbour: drop what is there.
                guard let rtp = try? RTPPacket(parsing: packets[entry.index].payload) else { continue }
                let original = entries.first { $0.index == entry.index }?.sequence ?? entry.sequence
                let sequence = rtp.sequenceNumber == UInt16(truncatingIfNeeded: original)
                    ? original : entries.first { UInt16(truncatingIfNeeded: $0.sequence) == rtp.sequenceNumber }?.sequence ?? original
                dropped[ssrc, default: []].insert(sequence)
                drop.insert(entry.index)
            }
        }
        let kept = packets.enumerated().filter { !drop.contains($0.offset) }.map(\.element)
        return Degraded(fixture: fixture.with(packets: kept), dropped: dropped, swaps: swaps)
    }

    /// Every frame of the undamaged fixture: sequence range and keyframe flag, per video SSRC.
    static func referenceFrames(_ fixture: Fixture) -> [UInt32: [(range: ClosedRange<Int64>, key: Bool)]] {
        var session = IngestSession(tracks: fixture.trackInfos)
        var frames: [UInt32: [(ClosedRange<Int64>, Bool)]] = [:]
        func collect(_ events: [IngestEvent]) {
            for case .frame(let frame) in events where frame.track.kind.isVideo {
                frames[frame.track.ssrc, default: []].append((frame.sequenceRange, frame.isKeyframe))
            }
        }
        for packet in fixture.packets { collect(session.receive(packet.payload, arrival: packet.arrival)) }
        collect(session.finish())
        return frames
    }

    @Test(arguments: [UInt64(7), 8, 9])
    func lossIsReportedAndNoFrameIsDecodedAcrossAMissingReference(seed: UInt64) throws {
        let original = try Fixture(directory: TestFixtures.path("example"))
        let degraded = Self.degrade(original, seed: seed)
        #expect(degraded.swaps > 0)
        #expect(degraded.dropped.values.reduce(0) { $0 + $1.count } > 0)
        let reference = Self.referenceFrames(original)

        var session = IngestSession(tracks: degraded.fixture.trackInfos)
        var decoders: [UInt32: VideoTrackDecoder] = [:]
        for track in degraded.fixture.trackInfos where track.kind.isVideo {
            decoders[track.ssrc] = try VideoTrackDecoder(codec: track.codec)
        }
        var released: [UInt32: [EncodedFrame]] = [:]
        var receivedSequences: [UInt32: [Int64]] = [:]
        var unwrappers: [UInt32: SequenceUnwrapper] = [:]
        func handle(_ events: [IngestEvent]) {
            for case .frame(let frame) in events where frame.track.kind.isVideo {
                released[frame.track.ssrc, default: []].append(frame)
                _ = decoders[frame.track.ssrc]?.decode(frame)
            }
        }
        for packet in degraded.fixture.packets {
            if !RTPPacket.looksLikeRTCP(packet.payload), let rtp = try? RTPPacket(parsing: packet.payload) {
                receivedSequences[rtp.ssrc, default: []].append(unwrappers[rtp.ssrc, default: SequenceUnwrapper()].unwrap(rtp.sequenceNumber))
            }
            handle(session.receive(packet.payload, arrival: packet.arrival))
            handle(session.poll(at: packet.arrival))
        }
        handle(session.finish())

        for track in degraded.fixture.trackInfos {
            let statistics = try #require(session.statistics(ssrc: track.ssrc))
            // Loss that can be seen: dropped packets between the first and last that arrived.
            let received = receivedSequences[track.ssrc] ?? []
            let low = received.min() ?? 0, high = received.max() ?? 0
            let expected = (degraded.dropped[track.ssrc] ?? []).filter { $0 > low && $0 < high }.count
            #expect(statistics.buffer.packetsLost == expected, "ssrc \(track.ssrc): lost \(statistics.buffer.packetsLost), dropped \(expected)")
            #expect(statistics.buffer.packetsLate == 0)
        }
        let reordered = degraded.fixture.trackInfos.compactMap { session.statistics(ssrc: $0.ssrc)?.buffer.packetsReordered }.reduce(0, +)
        #expect(reordered > 0)

        for (ssrc, frames) in reference {
            let lost = degraded.dropped[ssrc] ?? []
            let out = released[ssrc] ?? []
            // Each released frame must be decodable: nothing lost from the latest keyframe up to it.
            var lastKeyframeStart: Int64?
            var releasedStarts = Set<Int64>()
            for frame in out {
                if frame.isKeyframe { lastKeyframeStart = frame.sequenceRange.lowerBound }
                let since = try #require(lastKeyframeStart, "a delta frame was released before any keyframe")
                let missing = lost.filter { $0 >= since && $0 <= frame.sequenceRange.upperBound }
                #expect(missing.isEmpty, "ssrc \(ssrc): frame \(frame.sequenceRange) released across lost \(missing.sorted())")
                releasedStarts.insert(frame.sequenceRange.lowerBound)
            }
            // Decoding resumes at the next whole keyframe after each loss, and every whole frame
            // of an intact run is released.
            var broken = false
            for frame in frames {
                let whole = !frame.range.contains { lost.contains($0) }
                if !whole { broken = true; continue }
                if frame.key { broken = false }
                if !broken {
                    #expect(releasedStarts.contains(frame.range.lowerBound), "ssrc \(ssrc): whole frame \(frame.range) was not released")
                } else {
                    #expect(!releasedStarts.contains(frame.range.lowerBound), "ssrc \(ssrc): frame \(frame.range) after a loss was released")
                }
            }
            let decoder = try #require(decoders[ssrc])
            #expect(decoder.statistics.decodeErrors == 0)
            #expect(decoder.statistics.framesDecoded == out.count)
        }
    }
}
