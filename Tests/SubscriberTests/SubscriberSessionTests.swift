import FrameCrypto
import Ingest
import JobSpec
import Log
import MediaSource
import RTP
import Subscriber
import Testing

/// The receive path every receiver shares: its keyframe and report policy, feedback held while
/// the connection is down, the E2EE rule applied to assembled frames, BYE.
@Suite struct SubscriberSessionTests {
    static let camera = TrackInfo(ssrc: 11, participantID: "ada", kind: .video, codec: .vp8, payloadType: 96, clockRate: 90_000)
    static let microphone = TrackInfo(ssrc: 10, participantID: "ada", kind: .audio, codec: .opus, payloadType: 111, clockRate: 48_000, channels: 2)

    static func session(keys: E2EEKeys? = nil) -> SubscriberSession {
        SubscriberSession(e2ee: E2EEGate(keys: keys, logger: Logger(label: "test")))
    }

    static func keyframeRequests(_ outputs: [SubscriberOutput]) -> [UInt32] {
        outputs.compactMap { if case .feedback(.pictureLossIndication(let ssrc)) = $0 { ssrc } else { nil } }
    }

    static func frames(_ outputs: [SubscriberOutput]) -> [EncodedFrame] {
        outputs.compactMap { if case .frame(let frame) = $0 { frame } else { nil } }
    }

    /// One whole VP8 keyframe in one packet (RFC 7741 §4.2: S = 1, PID 0; §4.3: P = 0).
    static func vp8Keyframe(_ sequence: UInt16, payload: [UInt8]) throws -> [UInt8] {
        try RTPPacket(marker: true, payloadType: 96, sequenceNumber: sequence, timestamp: UInt32(sequence) * 3000, ssrc: 11,
                      payload: [0x10] + payload).marshal()
    }

    static let keyframe: [UInt8] = [0x10, 0x02, 0x00, 0x9D, 0x01, 0x2A, 0x80, 0x02, 0x68, 0x01] + Array(repeating: 0x5A, count: 40)

    @Test func aVideoTrackAsksForAKeyframeUntilAPictureDecodesAtMostOnceASecond() {
        let session = Self.session()
        #expect(Self.keyframeRequests(session.add(Self.camera, at: 0)) == [11])
        #expect(Self.keyframeRequests(session.add(Self.microphone, at: 0)).isEmpty, "audio needs no keyframe")
        #expect(Self.keyframeRequests(session.poll(at: 0.5)).isEmpty)
        #expect(Self.keyframeRequests(session.poll(at: 1.0)) == [11], "nothing decoded after a second: asked again")
        session.pictureDecoded(ssrc: 11)
        #expect(Self.keyframeRequests(session.poll(at: 2.5)).isEmpty)
        #expect(Self.keyframeRequests(session.keyframeNeeded(ssrc: 11, at: 2.6)) == [11])
        #expect(Self.keyframeRequests(session.keyframeNeeded(ssrc: 11, at: 3.0)).isEmpty, "at most one a second")
        #expect(Self.keyframeRequests(session.keyframeNeeded(ssrc: 11, at: 3.6)) == [11])
        _ = session.remove(ssrc: 11, at: 4)
        #expect(Self.keyframeRequests(session.keyframeNeeded(ssrc: 11, at: 5)).isEmpty, "not for a track no longer received")
    }

    @Test func feedbackWaitsForTheConnection() throws {
        let session = Self.session()
        session.canSend = false
        #expect(session.add(Self.camera, at: 0).isEmpty)
        #expect(session.add(Self.microphone, at: 0).isEmpty)
        let opus = try RTPPacket(payloadType: 111, sequenceNumber: 1, timestamp: 960, ssrc: 10, payload: [0xF8, 0x01]).marshal()
        _ = session.receive(opus, arrival: 0.1)
        #expect(session.poll(at: 1.5).allSatisfy { if case .feedback = $0 { false } else { true } })
        session.canSend = true
        let outputs = session.poll(at: 1.6)
        #expect(Self.keyframeRequests(outputs) == [11], "the starting request goes once the connection is up")
        let reports = outputs.compactMap { if case .feedback(.receiverReport(let blocks)) = $0 { blocks.map(\.ssrc) } else { nil } }
        #expect(reports == [[10]])
        // The next report a second later, not sooner.
        #expect(!session.poll(at: 2.0).contains { if case .feedback(.receiverReport) = $0 { true } else { false } })
        #expect(session.poll(at: 2.6).contains { if case .feedback(.receiverReport) = $0 { true } else { false } })
    }

    @Test func framesAreOpenedByTheOneE2EERule() throws {
        // Ada encrypts; the session has her key: her frames are opened.
        let keyed = Self.session(keys: E2EEKeys(participantKeys: ["ada": "ada's key"]))
        keyed.e2ee.setEncrypted("ada", true)
        _ = keyed.add(Self.camera, at: 0)
        let sealed = try FrameEncryptor(baseKey: "ada's key", codec: .vp8).encrypt(Self.keyframe)
        let opened = Self.frames(keyed.receive(try Self.vp8Keyframe(1, payload: sealed), arrival: 0.1) + keyed.poll(at: 0.5))
        #expect(opened.map(\.data) == [Self.keyframe])
        // Without a key her frames are refused (and a keyframe asked for), never passed on sealed.
        let unkeyed = Self.session()
        unkeyed.e2ee.setEncrypted("ada", true)
        _ = unkeyed.add(Self.camera, at: 0)
        let outputs = unkeyed.receive(try Self.vp8Keyframe(1, payload: sealed), arrival: 1.1) + unkeyed.poll(at: 1.5)
        #expect(Self.frames(outputs).isEmpty)
        #expect(outputs.contains(.undecryptable(Self.camera)))
        #expect(Self.keyframeRequests(outputs) == [11])
        #expect(unkeyed.e2ee.framesRefused == 1)
        // Someone who does not encrypt, with no key for them, is taken as they are.
        let clear = Self.session()
        _ = clear.add(Self.camera, at: 0)
        #expect(Self.frames(clear.receive(try Self.vp8Keyframe(1, payload: Self.keyframe), arrival: 0.1) + clear.poll(at: 0.5)).map(\.data)
            == [Self.keyframe])
    }

    /// A frame that does not decrypt (Ada's key changed before ours did) leaves the decoder
    /// without a picture her next frames refer to: once they open again they are held back
    /// until a keyframe, which is asked for again each second meanwhile.
    @Test func afterAFrameThatDoesNotDecryptOnlyAKeyframeGoesOn() throws {
        final class Keys: @unchecked Sendable { var current: E2EEKeys? = E2EEKeys(participantKeys: ["ada": "the old key"]) }
        let keys = Keys()
        let session = SubscriberSession(e2ee: E2EEGate(currentKeys: { keys.current }, logger: Logger(label: "test")))
        session.e2ee.setEncrypted("ada", true)
        _ = session.add(Self.camera, at: 0)
        let old = try FrameEncryptor(baseKey: "the old key", codec: .vp8)
        let new = try FrameEncryptor(baseKey: "the new key", codec: .vp8)
        let delta: [UInt8] = [0x11, 0x02, 0x00] + Array(repeating: 0x33, count: 40)
        func sent(_ sequence: UInt16, _ frame: [UInt8], at time: Double) throws -> [SubscriberOutput] {
            session.receive(try Self.vp8Keyframe(sequence, payload: frame), arrival: time) + session.poll(at: time + 0.4)
        }
        #expect(Self.frames(try sent(1, old.encrypt(Self.keyframe), at: 0.1)).count == 1)
        session.pictureDecoded(ssrc: 11)
        let refused = try sent(2, new.encrypt(delta), at: 2.0)
        #expect(Self.frames(refused).isEmpty && refused.contains(.undecryptable(Self.camera)))
        #expect(Self.keyframeRequests(refused) == [11])
        keys.current = E2EEKeys(participantKeys: ["ada": "the new key"])
        let held = try sent(3, new.encrypt(delta), at: 2.5)
        #expect(Self.frames(held).isEmpty, "a delta after the lost frame is held back")
        #expect(Self.keyframeRequests(held).isEmpty, "at most one request a second")
        #expect(Self.keyframeRequests(session.poll(at: 3.1)) == [11], "asked again while waiting")
        #expect(Self.frames(try sent(4, new.encrypt(Self.keyframe), at: 3.2)).map(\.isKeyframe) == [true])
        #expect(Self.frames(try sent(5, new.encrypt(delta), at: 3.7)).map(\.isKeyframe) == [false], "what follows the keyframe goes on")
        #expect(Self.keyframeRequests(session.poll(at: 5.5)).isEmpty)
    }

    @Test func keysReadBeforeEachFrameApplyAtOnce() throws {
        final class Keys: @unchecked Sendable { var current: E2EEKeys? }
        let keys = Keys()
        let session = SubscriberSession(e2ee: E2EEGate(currentKeys: { keys.current }, logger: Logger(label: "test")))
        session.e2ee.setEncrypted("ada", true)
        _ = session.add(Self.camera, at: 0)
        let sealed = try FrameEncryptor(baseKey: "ada's key", codec: .vp8).encrypt(Self.keyframe)
        #expect(Self.frames(session.receive(try Self.vp8Keyframe(1, payload: sealed), arrival: 0.1) + session.poll(at: 0.5)).isEmpty)
        keys.current = E2EEKeys(sharedKey: "ada's key")
        #expect(Self.frames(session.receive(try Self.vp8Keyframe(2, payload: sealed), arrival: 0.6) + session.poll(at: 1.0)).map(\.data)
            == [Self.keyframe])
    }

    @Test func aByeFromEveryTrackIsTheParticipantLeaving() throws {
        let session = Self.session()
        _ = session.add(Self.microphone, at: 0)
        let bye = try RTCPPacket.goodbye(RTCPGoodbye(sources: [10])).marshal()
        _ = session.receive(try RTPPacket(payloadType: 111, sequenceNumber: 1, timestamp: 960, ssrc: 10, payload: [0xF8, 0x01]).marshal(),
                            arrival: 0)
        #expect(session.receive(bye, arrival: 2).contains(.participantLeft(participantID: "ada", at: 2)))
    }
}
