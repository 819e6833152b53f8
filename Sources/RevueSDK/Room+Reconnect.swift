import Foundation
import Publisher
import RoomSession
import Signaling

/// Coming back after a lost connection (the seeds' RECONNECTING state, docs/SDK.md
/// "Reconnecting"). The publisher pings the server after 5 s of silence and counts the
/// connection lost when 5 s more pass without an answer, or at once when the socket breaks. The
/// room then goes RECONNECTING: calls throw 3065, requests waiting for a reply get 3065, and it
/// joins again with the same participant id and its membership's resume key at once, after
/// 0.25 s and 0.5 s, then every second, for up to `reconnectWindow` (30 s). The server lets
/// the key take the old self's place, even while it still holds that one, and does not ask for
/// entry again.
///
/// Back in, the media connections are new: the camera, microphone, screen share and
/// publications to one participant are sent again; the others' streams are disabled and enabled
/// again with their new tracks; those who left meanwhile get `onParticipantLeft` (1007 UNKNOWN:
/// the reason was not heard) and those who came get `onParticipantJoined`. Then CONNECTED.
/// Out of attempts, or refused by the server (a token that expired, a room that is gone), the
/// room is left: `onError` with why, then `onRoomLeft` with 1102 or 1103.
extension Room {
    /// The publisher's keepalive: a ping after this many seconds without a byte from the server.
    nonisolated static let signalingKeepalive: Double = 5

    /// 128 random bits, as 32 hex digits (`JoinRequest.isValidResumeKey`).
    nonisolated static func newResumeKey() -> String {
        (0..<4).map { _ in
            let word = String(UInt32.random(in: 0...UInt32.max), radix: 16)
            return String(repeating: "0", count: 8 - word.count) + word
        }.joined()
    }

    /// The signalling connection was lost while CONNECTED: drops the publisher and starts trying.
    func reconnect(because why: String) {
        guard state == .CONNECTED, let old = publisher, let local = localParticipant else { return }
        generation += 1
        inbound?.finish()
        inbound = nil
        publisher = nil
        // Its socket is gone; this stops its media thread and closes its media connections.
        Self.inBackground { old.leave() }
        for (_, waiter) in pending {
            waiter.resume(returning: .error(ErrorCode(code: VideoSDKError.ERROR_ROOM_RECONNECTING.code, name: VideoSDKError.ERROR_ROOM_RECONNECTING.name),
                                            message: "the connection to the room was lost before the reply; the room is reconnecting"))
        }
        pending = [:]
        setState(.RECONNECTING)
        var configuration = old.configuration
        configuration.participantID = local.id
        configuration.camera = nil
        configuration.microphone = nil
        offerCameraAsItIs(&configuration)
        configuration.resumeKey = resumeKey
        let cancellation = JoinCancellation()
        configuration.cancellation = cancellation
        joinCancellation = cancellation
        let ready = configuration
        // The room moved to another node (its node drained): the first attempt goes there,
        // then every other one; the others through the door the app gave and, in a cluster,
        // the other nodes' doors in turn, so a dead door costs one attempt (docs/CLUSTER.md).
        let route = old.rejoinRoute
        Task { @MainActor [weak self] in
            await self?.rejoin(ready, route: route, cancellation: cancellation, lost: why)
        }
    }

    /// Joins again until in, refused, out of time, or left.
    private func rejoin(_ configuration: RoomPublisher.Configuration, route: RejoinRoute, cancellation: JoinCancellation, lost: String) async {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: reconnectWindow)
        var wait: Duration = .milliseconds(250)
        var attempts = 0
        var lastError = lost
        while state == .RECONNECTING, !cancellation.isCancelled, clock.now < deadline {
            attempts += 1
            let (stream, continuation) = AsyncStream<Inbound>.makeStream()
            var attempt = configuration
            attempt.signalingURL = route.target(attempt: attempts)
            attempt.connectTimeout = RoomPublisher.rejoinConnectTimeout
            Self.wire(&attempt, to: continuation)
            // Each attempt ends inside the window.
            attempt.joinTimeout = max(1, min(5, Double((deadline - clock.now).components.seconds)))
            let ready = attempt
            do {
                let made = try await Self.offMain { try RoomPublisher(configuration: ready) }
                guard state == .RECONNECTING, !cancellation.isCancelled else {
                    continuation.finish()
                    await Self.offMain { made.leave() }
                    return
                }
                joinCancellation = nil
                await resumed(on: made, stream: stream, continuation: continuation)
                return
            } catch {
                continuation.finish()
                guard state == .RECONNECTING, !cancellation.isCancelled else { return }
                let failure = Self.joinError(error)
                lastError = failure.description
                if let refusal = error as? RoomJoinError, refusal.code != nil {
                    // The server answered: the network is back, and asking again gets the same no.
                    joinCancellation = nil
                    report(VideoSDKError.ERROR_UNABLE_TO_JOIN_ROOM.with("could not rejoin the room after losing the connection: \(failure)"))
                    close(reason: .joinRoomFailed)
                    return
                }
            }
            try? await Task.sleep(for: wait)
            wait = min(wait * 2, .seconds(1))
        }
        guard state == .RECONNECTING, !cancellation.isCancelled else { return }
        joinCancellation = nil
        report(VideoSDKError.ERROR_UNABLE_TO_JOIN_ROOM.with("could not reconnect to the room in \(reconnectWindow) (\(attempts) attempts): \(lastError)"))
        close(reason: .websocketConnectionAttemptsExhausted)
    }

    /// In again on `made`: the room as the server tells it now, the local media sent again.
    private func resumed(on made: RoomPublisher, stream: AsyncStream<Inbound>, continuation: AsyncStream<Inbound>.Continuation) async {
        inbound = continuation
        publisher = made
        let joined = made.joined
        sessionId = joined.sessionID
        let present = Dictionary(joined.participants.map { ($0.participantID, $0) }, uniquingKeysWith: { first, _ in first })
        for participant in participants.values.sorted(by: { $0.id < $1.id }) where present[participant.id] == nil {
            participants[participant.id] = nil
            localParticipant?.endPublications(to: participant.id)
            emit { $0.onParticipantLeft(participant, reason: .unknown) }
        }
        for info in joined.participants {
            if let participant = participants[info.participantID] {
                // Their old tracks came over the media connection that is gone.
                for kind in StreamKind.allCases {
                    if let stream = participant.disable(kind) { emit { $0.onStreamDisabled(stream, forParticipant: participant) } }
                }
                participant.mode = Mode(info.mode)
                enableStreams(of: participant, as: info, from: made)
            } else {
                let participant = RemoteParticipant(id: info.participantID, displayName: info.name, mode: Mode(info.mode), room: self)
                participants[info.participantID] = participant
                emit { $0.onParticipantJoined(participant) }
                enableStreams(of: participant, as: info, from: made)
            }
        }
        if presenterId != joined.presenterID {
            presenterId = joined.presenterID
            emit { $0.onPresenterChanged(participantId: joined.presenterID) }
        }
        activeSpeakerId = joined.activeSpeakerID
        // The server starts every subscription at the top layer again.
        adaptive = AdaptiveSubscription()
        setState(.CONNECTED)
        consume(stream)
        // The join asks for the mode of the first join; a mode changed since is asked again
        // (the devices were released when it changed, so nothing is sent meanwhile).
        if let local = localParticipant, Mode(joined.mode) != local.mode {
            // Joined SIGNALLING_ONLY and changed since: receive again, as `changeMode` did.
            let receives = Mode(joined.mode) == .SIGNALLING_ONLY
            if receives {
                do {
                    try await startReceiving(on: made)
                } catch {
                    report(error)
                }
            }
            if case .error(let code, let message) = (try? await request(.changeMode(local.mode.signaling))) ?? .ack {
                report(VideoSDKError(code, "the mode \(local.mode.rawValue) was not taken back after reconnecting: \(message)"))
            } else if receives, publisher === made {
                receiveStreams(from: made)
            }
            guard publisher === made, state == .CONNECTED else { return }
        }
        await askAgainForWhatWasChosen()
        guard publisher === made, state == .CONNECTED else { return }
        resendLocalMedia(on: made)
        if shareOn, let source = shareSource {
            let settings = Room.shareSettings(shareTrack?.screenShareConfig ?? .h720p_15fps, multiStream: shareTrack?.multiStream ?? false)
            // The old id was the old publisher's.
            sharePublication = nil
            let box = PublicationIDBox()
            let result: Result<Void, DirectedVideoError> = await withCheckedContinuation { continuation in
                box.id = made.publishShare(source: source, settings: settings) { continuation.resume(returning: $0) }
            }
            guard publisher === made else { return }
            switch result {
            case .success:
                // Turned off while the server answered: it goes with it.
                if shareOn { sharePublication = box.id } else { made.unpublishVideo(publication: box.id) }
            case .failure(let error) where shareOn:
                releaseScreenShare()
                report(VideoSDKError.ERROR_GET_DISPLAY_MEDIA.with("the screen share did not start again after reconnecting: \(error.message)"))
            case .failure:
                break
            }
        }
        guard publisher === made else { return }
        await localParticipant?.republish(on: made)
        guard publisher === made, state == .CONNECTED else { return }
        if camOn || micOn || shareOn {
            do {
                try await reportMedia()
            } catch {
                report(error)
            }
        }
    }

    /// The server's new member receives everything at the top layer: what `pauseAllStreams`
    /// paused and the layers `setQuality` chose are asked for again (the server confirms a pause
    /// as it did the first time, so `onPausedAllStreams` comes again).
    private func askAgainForWhatWasChosen() async {
        let paused = pausedKinds
        let requests: [StreamKind?] = paused == Set(StreamKind.allCases) ? [nil] : paused.sorted { $0.rawValue < $1.rawValue }
        for kind in requests where !paused.isEmpty {
            if case .error(let code, let message) = (try? await request(.pauseAllStreams(kind: kind?.signaling))) ?? .ack {
                report(VideoSDKError(code, "the paused streams were not paused again after reconnecting: \(message)"))
            }
        }
        for participant in participants.values.sorted(by: { $0.id < $1.id }) {
            do {
                if let quality = participant.chosenQuality { try await participant.setQuality(quality) }
                if let quality = participant.chosenShareQuality { try await participant.setScreenShareQuality(quality) }
            } catch {
                report(error.with("the layer chosen for \(participant.displayName) was not chosen again after reconnecting: \(error.message)"))
            }
        }
    }
}
