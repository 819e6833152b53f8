import FrameCrypto
import Ingest
import JobSpec
import Log
import MediaSource

/// What end-to-end encryption means for whoever receives a room (docs/E2EE.md): the recorder,
/// the SDK and the transcriber hold every participant to one rule.
///
/// A participant's frames must decrypt when their join said their media is encrypted, or when
/// the receiver has a key for them (the room's shared key, or theirs): the server's word that
/// someone does *not* encrypt is not trusted where a key exists, so a server cannot slip clear
/// media in. Only those the receiver has no key for and who do not say they encrypt are taken
/// in the clear. A frame that must decrypt and does not (no key, the wrong key, damage, a
/// replay) is refused, never passed on as undecodable pictures or noise.
///
/// For a recording, an encrypted participant the job has no key for joins with no tracks
/// (`admit`): their tile is the camera-off placeholder and their sound is left out.
///
/// Keys are read before each frame, so a key the SDK sets while in the room applies at once;
/// the derived keys and replay counters carry on while the keys stay the same.
///
/// Not thread-safe: owned by one receive path's thread.
public final class E2EEGate {
    private let currentKeys: () -> E2EEKeys?
    private var decryptor: FrameDecryptor?
    /// Participants whose join said their media is encrypted.
    private var encrypted = Set<String>()
    /// Encrypted participants the receiver had no key for when they joined: kept out of a recording.
    private var keptOut = Set<String>()
    /// Participants already warned about (once each: a frame a second would flood the log).
    private var warned = Set<String>()
    private let logger: Logger
    /// Frames that had to decrypt and did not: dropped.
    public private(set) var framesRefused = 0

    /// A gate with fixed keys (a recording job's `config.e2ee`), or none.
    public convenience init(keys: E2EEKeys?, logger: Logger) {
        let fixed = keys.flatMap { $0.isEmpty ? nil : $0 }
        self.init(currentKeys: { fixed }, logger: logger)
    }

    /// A gate that reads the keys before each frame (the SDK's, which the app may change).
    public init(currentKeys: @escaping () -> E2EEKeys?, logger: Logger) {
        self.currentKeys = currentKeys
        self.logger = logger
    }

    /// Whether a participant's media is end-to-end encrypted, as their join said.
    public func setEncrypted(_ participantID: String, _ isEncrypted: Bool) {
        if isEncrypted { encrypted.insert(participantID) } else { encrypted.remove(participantID) }
    }

    /// A participant left: what was known of them goes.
    public func forget(_ participantID: String) {
        encrypted.remove(participantID)
        keptOut.remove(participantID)
    }

    /// The event as a recording sees it: an encrypted participant without a key joins with no
    /// tracks, and what they publish is not received.
    public func admit(_ event: RoomEvent) -> RoomEvent? {
        switch event {
        case .join(var participant):
            setEncrypted(participant.id, participant.encrypted)
            keptOut.remove(participant.id)
            guard participant.encrypted, key(for: participant.id) == nil else { return event }
            keptOut.insert(participant.id)
            logger.warning("a participant's media is end-to-end encrypted and this job has no key for it: their tile is the placeholder",
                           ["participantId": .string(participant.id)])
            participant.tracks = []
            return .join(participant)
        case .publish(let id, _):
            return keptOut.contains(id) ? nil : event
        case .leave(let id):
            forget(id)
            return event
        case .unpublish, .rename, .pin, .unpin, .activeSpeaker:
            return event
        }
    }

    /// The frame to decode: as it was before its sender encrypted it, or itself when it need not
    /// decrypt. Nil when it must decrypt and does not.
    public func open(_ frame: EncodedFrame) -> EncodedFrame? {
        let participantID = frame.track.participantID
        let keys = currentKeys()
        // Someone not announced yet is held to the key there is for them, if any: never in the
        // clear by default.
        guard encrypted.contains(participantID) || keys?.key(for: participantID) != nil else { return frame }
        guard let keys, keys.key(for: participantID) != nil else {
            return refused(participantID, because: "no key for an encrypted participant")
        }
        if decryptor?.keys != keys { decryptor = FrameDecryptor(keys: keys) }
        guard let decryptor else { return nil }
        do {
            var clear = frame
            clear.data = try decryptor.decrypt(frame.data, from: participantID, codec: frame.track.codec)
            return clear
        } catch {
            return refused(participantID, because: "\(error)")
        }
    }

    private func key(for participantID: String) -> String? {
        currentKeys()?.key(for: participantID)
    }

    private func refused(_ participantID: String, because reason: String) -> EncodedFrame? {
        framesRefused += 1
        if warned.insert(participantID).inserted {
            logger.warning("an end-to-end encrypted frame did not decrypt; such frames are dropped",
                           ["participantId": .string(participantID), "error": .string(reason)])
        }
        return nil
    }
}
