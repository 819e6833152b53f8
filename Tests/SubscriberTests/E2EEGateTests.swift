import FrameCrypto
import Ingest
import JobSpec
import Log
import MediaSource
import Subscriber
import Testing

/// The one E2EE rule every receiver keeps: who is decrypted, who is kept out, and what a frame that does
/// not decrypt becomes.
@Suite struct E2EEGateTests {
    static let camera = TrackDescription(kind: .video, ssrc: 21, codec: .vp8, payloadType: 96, clockRate: 90000)

    static func frame(_ data: [UInt8], from participantID: String) -> EncodedFrame {
        EncodedFrame(track: TrackInfo(camera, participantID: participantID), data: data, isKeyframe: true, rtpTimestamp: 0, mediaTime: 0,
                     lostBefore: 0, sequenceRange: 0...0)
    }

    /// A VP8 keyframe's first bytes (RFC 7741 §4.3: P = 0, then the start code) and a body.
    static let keyframe: [UInt8] = [0x10, 0x02, 0x00, 0x9D, 0x01, 0x2A, 0x80, 0x02, 0x68, 0x01] + Array(repeating: 0x5A, count: 40)

    @Test func anEncryptedParticipantWithoutAKeyJoinsWithNoTracks() {
        let gate = E2EEGate(keys: E2EEKeys(participantKeys: ["ada": "ada's key"]), logger: Logger(label: "test"))
        let bob = ParticipantDescription(id: "bob", name: "Bob", tracks: [Self.camera], encrypted: true)
        #expect(gate.admit(.join(bob)) == .join(ParticipantDescription(id: "bob", name: "Bob", tracks: [], encrypted: true)))
        #expect(gate.admit(.publish(participantID: "bob", track: Self.camera)) == nil)
        #expect(gate.admit(.leave(participantID: "bob")) == .leave(participantID: "bob"))
        // Someone who does not encrypt is as they are, with or without keys.
        let carol = ParticipantDescription(id: "carol", name: "Carol", tracks: [Self.camera])
        #expect(gate.admit(.join(carol)) == .join(carol))
        #expect(gate.open(Self.frame(Self.keyframe, from: "carol"))?.data == Self.keyframe)
        #expect(E2EEGate(keys: nil, logger: Logger(label: "test")).admit(.join(bob)) == .join(ParticipantDescription(id: "bob", name: "Bob", encrypted: true)))
    }

    @Test func anEncryptedParticipantsFramesAreDecryptedWithTheirKey() throws {
        let gate = E2EEGate(keys: E2EEKeys(participantKeys: ["ada": "ada's key"]), logger: Logger(label: "test"))
        let ada = ParticipantDescription(id: "ada", name: "Ada", tracks: [Self.camera], encrypted: true)
        #expect(gate.admit(.join(ada)) == .join(ada))
        let encryptor = try FrameEncryptor(baseKey: "ada's key", codec: .vp8)
        let sealed = try encryptor.encrypt(Self.keyframe)
        #expect(sealed != Self.keyframe)
        #expect(gate.open(Self.frame(sealed, from: "ada"))?.data == Self.keyframe)
        // The wrong key, or a frame in the clear, is dropped and counted.
        let other = try FrameEncryptor(baseKey: "not ada's key", codec: .vp8)
        #expect(gate.open(Self.frame(try other.encrypt(Self.keyframe), from: "ada")) == nil)
        #expect(gate.open(Self.frame(Self.keyframe, from: "ada")) == nil)
        #expect(gate.framesRefused == 2)
    }

    /// With the room's key, the server's word that someone does not encrypt is not taken: their
    /// clear frames are refused, and what was sealed with the key opens.
    @Test func withTheRoomsKeyEveryParticipantsFramesMustOpen() throws {
        let gate = E2EEGate(keys: E2EEKeys(sharedKey: "the room's key"), logger: Logger(label: "test"))
        let carol = ParticipantDescription(id: "carol", name: "Carol", tracks: [Self.camera], encrypted: false)
        #expect(gate.admit(.join(carol)) == .join(carol))
        #expect(gate.open(Self.frame(Self.keyframe, from: "carol")) == nil)
        let sealed = try FrameEncryptor(baseKey: "the room's key", codec: .vp8).encrypt(Self.keyframe)
        #expect(gate.open(Self.frame(sealed, from: "carol"))?.data == Self.keyframe)
        #expect(gate.framesRefused == 1)
        // A participant key holds its owner to it too, and no one else.
        let keyed = E2EEGate(keys: E2EEKeys(participantKeys: ["ada": "ada's key"]), logger: Logger(label: "test"))
        let ada = ParticipantDescription(id: "ada", name: "Ada", tracks: [Self.camera], encrypted: false)
        #expect(keyed.admit(.join(ada)) == .join(ada))
        #expect(keyed.open(Self.frame(Self.keyframe, from: "ada")) == nil)
        #expect(keyed.admit(.join(carol)) == .join(carol))
        #expect(keyed.open(Self.frame(Self.keyframe, from: "carol"))?.data == Self.keyframe)
        // Frames of someone whose join was not seen are held to the key too.
        #expect(gate.open(Self.frame(Self.keyframe, from: "dave")) == nil)
        let sealedByDave = try FrameEncryptor(baseKey: "the room's key", codec: .vp8).encrypt(Self.keyframe)
        #expect(gate.open(Self.frame(sealedByDave, from: "dave"))?.data == Self.keyframe)
    }
}
