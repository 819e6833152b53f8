import FrameCrypto
import Ingest
import JobSpec
import Log
import MediaSource

/// What end-to-end encryption means for a recording (docs/E2EE.md). A participant whose join
/// said their media is encrypted is recorded only with their key (the shared key, or theirs)
/// from the job's `config.e2ee`: with it, each frame is decrypted after assembly and before
/// decoding; without it, they join with no tracks, so their tile is the camera-off placeholder
/// and their sound is left out, never undecodable pictures or noise.
///
/// The server's word that someone does *not* encrypt is not trusted where the job has a key for
/// them (the room's shared key, or theirs): their frames must open with it, so a server cannot
/// slip clear media into an encrypted recording. Only those the job has no key for are taken at
/// the server's word.
final class E2EEGate {
    private let decryptor: FrameDecryptor?
    /// Participants whose media is encrypted, and whether the job has their key.
    private var encrypted: [String: Bool] = [:]
    /// Participants already warned about (once each: a frame a second would flood the log).
    private var warned = Set<String>()
    private let logger: Logger
    /// Frames that did not decrypt (the wrong key, damage, a replay): dropped.
    private(set) var framesRefused = 0

    init(keys: E2EEKeys?, logger: Logger) {
        decryptor = keys.flatMap { $0.isEmpty ? nil : FrameDecryptor(keys: $0) }
        self.logger = logger
    }

    /// The event as the recording sees it: an encrypted participant without a key joins with no
    /// tracks, and what they publish is not received.
    func admit(_ event: RoomEvent) -> RoomEvent? {
        switch event {
        case .join(var participant):
            let keyed = decryptor?.keys.key(for: participant.id) != nil
            guard participant.encrypted || keyed else {
                encrypted[participant.id] = nil
                return event
            }
            encrypted[participant.id] = keyed
            if !keyed {
                logger.warning("a participant's media is end-to-end encrypted and this job has no key for it: their tile is the placeholder",
                               ["participantId": .string(participant.id)])
                participant.tracks = []
                return .join(participant)
            }
            return event
        case .publish(let id, _):
            return encrypted[id] == false ? nil : event
        case .leave, .unpublish, .rename, .pin, .unpin, .activeSpeaker:
            return event
        }
    }

    /// The frame to decode: as it was before the sender encrypted it, or itself when its sender
    /// does not encrypt. Nil when it does not decrypt.
    func open(_ frame: EncodedFrame) -> EncodedFrame? {
        let participantID = frame.track.participantID
        // Someone not announced yet is held to the key the job has for them, if any: never in
        // the clear by default.
        guard encrypted[participantID] ?? (decryptor?.keys.key(for: participantID) != nil), let decryptor else { return frame }
        do {
            var clear = frame
            clear.data = try decryptor.decrypt(frame.data, from: participantID, codec: frame.track.codec.e2eeCodec)
            return clear
        } catch {
            framesRefused += 1
            if warned.insert(participantID).inserted {
                logger.warning("an end-to-end encrypted frame did not decrypt; such frames are dropped",
                               ["participantId": .string(participantID), "error": .string("\(error)")])
            }
            return nil
        }
    }
}
