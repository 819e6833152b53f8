import Foundation
import JobSpec
import Log
import RoomReceiver
import RoomSession

/// The receive path (`MediaReceiver`): made at the join when the publisher receives, or later,
/// when a room joined SIGNALLING_ONLY (no subscriber connection) changes to a mode with media
/// and the server starts offering the others' tracks.
extension RoomPublisher {
    /// A receiver that answers the server's subscriber offers over `signaling`, told who
    /// encrypts.
    static func makeReceiver(logger: Logger, keys: (@Sendable () -> E2EEKeys?)?, signaling: RoomSignaling,
                             encrypting: Set<String>) throws -> MediaReceiver
    {
        let made = try MediaReceiver(logger: logger, keys: keys) { signaling.send(.subscribeAnswer(sdp: $0)) }
        for participantID in encrypting { made.setEncrypted(participantID, true) }
        return made
    }

    /// Starts receiving in a room joined SIGNALLING_ONLY, before it asks for a mode with media:
    /// the server's subscriber offer that follows the change is answered, not declined. Does
    /// nothing when a receiver is there already, the publisher does not receive
    /// (`Configuration.receives`) or it has left.
    /// - Throws: when the receiver's socket or thread cannot be made.
    public func startReceiving() throws {
        guard configuration.receives else { return }
        try lock.withLock {
            guard madeReceiver == nil, !receivingEnded else { return }
            madeReceiver = try Self.makeReceiver(logger: logger, keys: configuration.e2eeKeys, signaling: signaling,
                                                 encrypting: encryptingParticipants)
            logger.info("receiving from now on", ["participantId": .string(participantID)])
        }
    }

    /// A participant's encryption, for the receiver there is or one made later.
    func noteEncryption(of participantID: String, _ encrypted: Bool) {
        let receiver = lock.withLock {
            if encrypted { encryptingParticipants.insert(participantID) } else { encryptingParticipants.remove(participantID) }
            return madeReceiver
        }
        receiver?.setEncrypted(participantID, encrypted)
    }

    /// The receiver stops, and none is made after it (the publisher leaves).
    func endReceiving(reason: String) {
        let receiver = lock.withLock {
            receivingEnded = true
            return madeReceiver
        }
        receiver?.stop(reason: reason)
    }
}
