import RTP
import SFU
import Testing

/// Active speaker from RFC 6464 levels: 300 ms windows, hysteresis, silence.
@Suite struct ActiveSpeakerTests {
    /// Audio producers for alice (peer 1) and bob (peer 3) with the audio-level extension (ID 1).
    struct Talk {
        let room: Room
        var producers: [ParticipantID: ProducerID] = [:]
        var sequence: [ParticipantID: UInt16] = [:]
        var now = 0.0
        var changes: [(time: Double, speaker: ParticipantID?)] = []

        init(configure: (inout RouterConfiguration) -> Void = { _ in }) throws {
            room = Room(configure: configure)
            for (peer, name) in [(PeerID(1), ParticipantID("alice")), (PeerID(3), ParticipantID("bob"))] {
                producers[name] = try room.router.addProducer(
                    ProducerParameters(peer: peer, participant: name, kind: .audio, codec: .opus, payloadType: 111, clockRate: 48_000,
                                       extensions: HeaderExtensionIDs(audioLevel: 1)),
                    now: 0)
            }
        }

        /// `seconds` of 20 ms packets with these levels (−dBov; nil sends nothing, as in DTX).
        mutating func speak(_ levels: [ParticipantID: UInt8?], for seconds: Double) {
            let end = now + seconds
            while now < end - 1e-9 {
                for (name, level) in levels.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                    guard let level, let producer = producers[name] else { continue }
                    let number = sequence[name, default: 0]
                    sequence[name] = number &+ 1
                    let ssrc: UInt32 = name == "alice" ? 0xA : 0xB
                    let packet = rtp(pt: 111, seq: number, ts: UInt32(number) * 960, ssrc: ssrc, extensions: [(1, [0x80 | level])],
                                     payload: [0xF8, 0xFF])
                    _ = room.router.receiveRTP(packet, fromProducer: producer, now: now)
                }
                now += 0.02
                if let deadline = room.router.nextDeadline, deadline <= now {
                    for case .activeSpeakerChanged(let speaker) in room.router.poll(now: now) { changes.append((now, speaker)) }
                }
            }
        }
    }

    @Test func theLoudestBecomesTheSpeakerAfterTwoWindows() throws {
        var talk = try Talk()
        talk.speak(["alice": 30, "bob": 90], for: 1)
        #expect(talk.changes.count == 1)
        #expect(talk.changes.first?.speaker == "alice")
        // Two windows of 300 ms: the change comes at the end of the second.
        #expect(abs((talk.changes.first?.time ?? 0) - 0.6) < 0.03)
        #expect(talk.room.router.activeSpeaker == "alice")
    }

    @Test func aShortInterruptionDoesNotSwitch() throws {
        var talk = try Talk()
        talk.speak(["alice": 30, "bob": 90], for: 1)
        // Bob coughs for one window.
        talk.speak(["alice": 40, "bob": 10], for: 0.3)
        talk.speak(["alice": 30, "bob": 90], for: 1)
        #expect(talk.changes.map(\.speaker) == ["alice"])
    }

    @Test func aLouderSpeakerTakesOver() throws {
        var talk = try Talk()
        talk.speak(["alice": 30, "bob": 90], for: 1)
        talk.speak(["alice": 40, "bob": 20], for: 1)
        #expect(talk.changes.map(\.speaker) == ["alice", "bob"])
    }

    @Test func talkingOverEachOtherWithinTheMarginHolds() throws {
        var talk = try Talk()
        talk.speak(["alice": 30, "bob": 90], for: 1)
        // Bob only 2 dB louder than alice: under the 3 dB margin.
        talk.speak(["alice": 30, "bob": 28], for: 2)
        #expect(talk.changes.map(\.speaker) == ["alice"])
    }

    @Test func silenceHoldsTheLastSpeaker() throws {
        var talk = try Talk()
        talk.speak(["alice": 30, "bob": 90], for: 1)
        // Nobody speaks: quiet packets, then none at all (DTX).
        talk.speak(["alice": 100, "bob": 110], for: 2)
        talk.speak(["alice": nil, "bob": nil], for: 5)
        #expect(talk.changes.map(\.speaker) == ["alice"])
        #expect(talk.room.router.activeSpeaker == "alice")
    }

    @Test func silenceTimeoutClearsTheSpeaker() throws {
        var talk = try Talk { $0.speaker.silenceTimeout = 2 }
        talk.speak(["alice": 30, "bob": 90], for: 1)
        talk.speak(["alice": nil, "bob": nil], for: 3)
        #expect(talk.changes.map(\.speaker) == ["alice", nil])
        let cleared = try #require(talk.changes.last?.time)
        #expect(cleared > 2.9 && cleared < 3.4)
    }

    @Test func theSpeakerLeaving() throws {
        var talk = try Talk()
        talk.speak(["alice": 30, "bob": 90], for: 1)
        _ = talk.room.router.removePeer(1)
        #expect(talk.room.router.activeSpeaker == nil)
        let actions = talk.room.router.poll(now: talk.now)
        #expect(actions.contains(.activeSpeakerChanged(nil)))
    }
}
