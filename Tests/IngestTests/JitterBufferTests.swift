import Ingest
import Testing

/// The jitter buffer driven by an invented clock.
@Suite struct JitterBufferTests {
    /// A video packet: frames are identified by timestamp, `start` and `end` mark the first and
    /// marker packets.
    static func video(_ sequence: Int64, ts: Int64, start: Bool = true, end: Bool = true, key: Bool = false) -> JitterBuffer.Packet {
        JitterBuffer.Packet(sequence: sequence, timestamp: ts, marker: end, data: [UInt8(truncatingIfNeeded: sequence)],
                            isFrameStart: start, isKeyframe: key && start)
    }

    static func frames(_ actions: [JitterBuffer.Action]) -> [Int64] {
        actions.compactMap { if case .frame(let frame) = $0 { return frame.timestamp } else { return nil } }
    }

    @Test func inOrderFramesFlowAtOnce() {
        var buffer = JitterBuffer(configuration: .video)
        #expect(Self.frames(buffer.insert(Self.video(10, ts: 0, key: true), at: 0)) == [0])
        #expect(buffer.insert(Self.video(11, ts: 3000, end: false), at: 0.033).isEmpty)
        #expect(Self.frames(buffer.insert(Self.video(12, ts: 3000, start: false), at: 0.034)) == [3000])
        #expect(buffer.state == .running)
        #expect(buffer.statistics.framesReleased == 2)
        #expect(buffer.statistics.keyframes == 1)
    }

    @Test func aFrameIsTheConcatenationOfItsPackets() {
        var buffer = JitterBuffer(configuration: .video)
        _ = buffer.insert(Self.video(1, ts: 0, end: false, key: true), at: 0)
        _ = buffer.insert(Self.video(2, ts: 0, start: false, end: false), at: 0)
        let actions = buffer.insert(Self.video(3, ts: 0, start: false), at: 0)
        guard case .frame(let frame) = actions.first else {
            Issue.record("no frame: \(actions)")
            return
        }
        #expect(frame.data == [1, 2, 3])
        #expect(frame.firstSequence == 1 && frame.lastSequence == 3)
        #expect(frame.isKeyframe)
    }

    @Test func reorderedPacketsAreWaitedForAndNacked() {
        var buffer = JitterBuffer(configuration: .video)
        _ = buffer.insert(Self.video(1, ts: 0, key: true), at: 0)
        // 3 (the marker of frame 3000) arrives before 2 (its start).
        let early = buffer.insert(Self.video(3, ts: 3000, start: false), at: 0.010)
        #expect(early == [.sendNack([2])])
        let late = buffer.insert(Self.video(2, ts: 3000, end: false), at: 0.012)
        #expect(Self.frames(late) == [3000])
        #expect(buffer.statistics.packetsReordered == 1)
        #expect(buffer.statistics.packetsLost == 0)
    }

    @Test func aLossDropsTheFrameAndWaitsForAKeyframe() {
        var buffer = JitterBuffer(configuration: .video)
        _ = buffer.insert(Self.video(1, ts: 0, key: true), at: 0)
        // Frame 3000 is packets 2 and 3; 2 is lost. Frame 6000 (4) is a delta frame.
        #expect(buffer.insert(Self.video(3, ts: 3000, start: false), at: 0.033) == [.sendNack([2])])
        #expect(buffer.insert(Self.video(4, ts: 6000), at: 0.066).isEmpty)
        // NACK again after the retry interval, then give up after the loss timeout.
        #expect(buffer.poll(at: 0.090) == [.sendNack([2])])
        let giveUp = buffer.poll(at: 0.200)
        #expect(Self.frames(giveUp).isEmpty)
        #expect(giveUp.contains(.requestKeyframe))
        #expect(buffer.state == .awaitingKeyframe)
        #expect(buffer.statistics.packetsLost == 1)
        #expect(buffer.statistics.framesIncomplete == 1)
        #expect(buffer.statistics.framesSkippedAwaitingKeyframe == 1)
        // More delta frames are skipped; the PLI is not repeated within its interval.
        #expect(buffer.insert(Self.video(5, ts: 9000), at: 0.25).isEmpty)
        // The keyframe resumes decoding.
        #expect(Self.frames(buffer.insert(Self.video(6, ts: 12000, key: true), at: 0.3)) == [12000])
        #expect(buffer.state == .running)
        #expect(Self.frames(buffer.insert(Self.video(7, ts: 15000), at: 0.33)) == [15000])
        #expect(buffer.statistics.keyframeRequests == 1)
    }

    @Test func keyframeRequestsAreRateLimited() {
        var buffer = JitterBuffer(configuration: .video)
        var requests = 0
        // A stream that starts with delta frames: each is skipped, PLIs at most every 0.5 s.
        for index in 0..<30 {
            let actions = buffer.insert(Self.video(Int64(index), ts: Int64(index) * 3000), at: Double(index) * 0.033)
            requests += actions.filter { $0 == .requestKeyframe }.count
        }
        #expect(requests == 2) // at 0 s and at 0.528 s
        #expect(buffer.statistics.framesSkippedAwaitingKeyframe == 30)
    }

    @Test func theMissingMiddleOfAFrameTimesOut() {
        var buffer = JitterBuffer(configuration: .video)
        _ = buffer.insert(Self.video(1, ts: 0, key: true), at: 0)
        _ = buffer.insert(Self.video(2, ts: 3000, end: false, key: true), at: 0.03)
        _ = buffer.insert(Self.video(4, ts: 3000, start: false), at: 0.03)
        _ = buffer.insert(Self.video(5, ts: 6000, key: true), at: 0.06)
        let actions = buffer.poll(at: 0.5)
        #expect(Self.frames(actions) == [6000])
        #expect(buffer.statistics.framesIncomplete == 1)
        #expect(buffer.statistics.packetsLost == 1)
    }

    @Test func duplicatesAndLatePacketsAreCountedAndIgnored() {
        var buffer = JitterBuffer(configuration: .video)
        _ = buffer.insert(Self.video(1, ts: 0, key: true), at: 0)
        #expect(buffer.insert(Self.video(1, ts: 0, key: true), at: 0.01).isEmpty)
        _ = buffer.insert(Self.video(3, ts: 6000, key: true), at: 0.05)
        _ = buffer.poll(at: 0.5)
        #expect(buffer.insert(Self.video(2, ts: 3000), at: 0.6).isEmpty)
        #expect(buffer.statistics.packetsDuplicated == 1)
        #expect(buffer.statistics.packetsLate == 1)
        #expect(buffer.statistics.packetsLost == 1)
    }

    @Test func theMarkerPacketLostEndsTheFrameAtTheNextTimestamp() {
        var buffer = JitterBuffer(configuration: .video)
        _ = buffer.insert(Self.video(1, ts: 0, key: true), at: 0)
        _ = buffer.insert(Self.video(2, ts: 3000, end: false), at: 0.03)
        // 3 (the marker of 3000) is lost; 4 starts the keyframe 6000.
        _ = buffer.insert(Self.video(4, ts: 6000, key: true), at: 0.06)
        let actions = buffer.poll(at: 0.3)
        #expect(Self.frames(actions) == [6000])
        #expect(buffer.statistics.framesIncomplete == 1)
    }

    @Test func audioFramesAreSinglePacketsAndLossIsReported() {
        var buffer = JitterBuffer(configuration: .audio)
        func audio(_ sequence: Int64) -> JitterBuffer.Packet {
            JitterBuffer.Packet(sequence: sequence, timestamp: sequence * 960, marker: false, data: [1], isFrameStart: true, isKeyframe: true)
        }
        #expect(Self.frames(buffer.insert(audio(1), at: 0)) == [960])
        #expect(buffer.insert(audio(4), at: 0.06) == [.sendNack([2, 3])])
        let actions = buffer.poll(at: 0.2)
        guard case .frame(let frame) = actions.last else {
            Issue.record("no frame after the loss: \(actions)")
            return
        }
        #expect(frame.timestamp == 4 * 960)
        #expect(frame.lostBefore == 2)
        #expect(buffer.statistics.packetsLost == 2)
        #expect(!actions.contains(.requestKeyframe))
    }

    @Test func sequenceNumbersAcrossTheWrapStayInOrder() {
        var buffer = JitterBuffer(configuration: .video)
        var released: [Int64] = []
        // Unwrapped numbers continue past 65535; a reorder at the wrap.
        for sequence: Int64 in [65534, 65536, 65535, 65537] {
            released += Self.frames(buffer.insert(Self.video(sequence, ts: sequence * 3000, key: sequence == 65534), at: 0))
        }
        #expect(released == [65534, 65535, 65536, 65537].map { $0 * 3000 })
    }

    @Test func aHugeJumpIsARestartNotALoss() {
        var buffer = JitterBuffer(configuration: .video)
        _ = buffer.insert(Self.video(1, ts: 0, key: true), at: 0)
        let actions = buffer.insert(Self.video(40_000, ts: 3000, key: true), at: 0.03)
        #expect(Self.frames(actions) == [3000])
        #expect(buffer.statistics.packetsLost == 0)
        #expect(buffer.statistics.restarts == 1)
    }

    @Test func flushReleasesWholeFramesAndCountsGaps() {
        var buffer = JitterBuffer(configuration: .video)
        _ = buffer.insert(Self.video(1, ts: 0, key: true), at: 0)
        _ = buffer.insert(Self.video(3, ts: 6000, key: true), at: 0.05)
        _ = buffer.insert(Self.video(4, ts: 9000, end: false), at: 0.06) // never finished
        #expect(Self.frames(buffer.flush()) == [6000])
        #expect(buffer.statistics.packetsLost == 1)
        #expect(buffer.statistics.framesIncomplete == 1)
    }

    @Test func pollTellsWhenTheNextTimeoutFalls() {
        var buffer = JitterBuffer(configuration: .video)
        _ = buffer.insert(Self.video(1, ts: 0, key: true), at: 1)
        #expect(buffer.nextDeadline == nil)
        _ = buffer.insert(Self.video(3, ts: 6000, key: true), at: 2)
        #expect(buffer.nextDeadline == 2 + JitterBuffer.Configuration.video.lossTimeout)
    }
}
