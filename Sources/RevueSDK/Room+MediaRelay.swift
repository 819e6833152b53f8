import Foundation
import Publisher

/// Media relay (the Room seed's `requestMediaRelay` / `stopMediaRelay`), done by the client:
/// see `MediaRelay`.
extension Room {
    /// Starts relaying this client's `kinds` (all three when nil) to `destinationRoomId`, with
    /// `token` (this room's when nil). A relay already running to that room is replaced. The
    /// relay follows the camera, microphone and screen share from then on.
    /// - Throws: 3073 for an empty id, 3065, 3035, and the destination's refusal of the join
    ///   (4002 INVALID_TOKEN, 4003 …), which `onError` also gets.
    public func requestMediaRelay(destinationRoomId: String, token: String? = nil, kinds: [StreamKind]? = nil) async throws(VideoSDKError) {
        guard !destinationRoomId.isEmpty else { throw VideoSDKError.ERROR_INVALID_PARAMETER.with("destinationRoomId is empty") }
        try checkJoined()
        guard destinationRoomId != id else { throw VideoSDKError.ERROR_INVALID_PARAMETER.with("the destination is this room") }
        if let running = relays.removeValue(forKey: destinationRoomId) { await Room.offMain { running.publisher.leave() } }
        var configuration = RoomPublisher.Configuration(
            signalingURL: settings.signalingURL, roomID: destinationRoomId, token: token ?? settings.token,
            participantName: settings.participantName, participantID: settings.participantId, camera: nil, microphone: nil,
            audioBitrate: settings.customMicrophoneTrack?.microphoneConfig?.bitrate ?? CustomMicrophoneTrackConfig.speech_standard.bitrate,
            mode: .sendAndReceive, offeredKinds: [.audio, .video])
        configuration.videoCodec = publisher?.configuration.videoCodec ?? .vp8
        configuration.simulcast = publisher?.configuration.simulcast ?? []
        offerCameraAsItIs(&configuration)
        // The destination's server may take other codecs than this room's: a camera it refuses
        // is not relayed, and `onError` hears why (once a codec, while the camera is relayed);
        // the relay goes on with the rest.
        configuration.onCameraRefused = { [weak self] codec, why in
            Task { @MainActor in
                guard let self, self.camOn, let relay = self.relays[destinationRoomId], relay.kinds.contains(.VIDEO),
                      relay.reportedRefusals.insert(codec).inserted
                else { return }
                self.report(VideoSDKError.ERROR_VIDEO_PRODUCE_CODEC_NOT_SUPPORTED.with("the relay to \(destinationRoomId) does not send the camera: \(why)"))
            }
        }
        configuration.e2eeKeys = publisher?.configuration.e2eeKeys
        configuration.stopsWithMedia = false
        let ready = configuration
        let made: RoomPublisher
        do {
            made = try await Room.offMain { try RoomPublisher(configuration: ready) }
        } catch {
            let failure = Room.joinError(error)
            report(failure)
            throw failure
        }
        // The room may have been left while the relay joined.
        guard state == .CONNECTED else {
            await Room.offMain { made.leave() }
            return
        }
        let relay = MediaRelay(destinationRoomID: destinationRoomId, kinds: Set(kinds ?? StreamKind.allCases), publisher: made)
        relays[destinationRoomId] = relay
        updateRelays()
    }

    /// Stops the relay to `destinationRoomId`: this client leaves that room. Nothing happens
    /// when there is none.
    /// - Throws: 3073 for an empty id, 3065, 3035.
    public func stopMediaRelay(destinationRoomId: String) async throws(VideoSDKError) {
        guard !destinationRoomId.isEmpty else { throw VideoSDKError.ERROR_INVALID_PARAMETER.with("destinationRoomId is empty") }
        try checkJoined()
        guard let relay = relays.removeValue(forKey: destinationRoomId) else { return }
        await Room.offMain { relay.publisher.leave(reason: .removePeerMediaRelayStop) }
    }

    /// Hands every relay what the room sends now.
    func updateRelays() {
        guard !relays.isEmpty else { return }
        let shareSettings = shareTrack.map { Room.shareSettings($0.screenShareConfig ?? .h720p_15fps, multiStream: $0.multiStream) }
        let sent = cameraTrack.map { Room.sentVideo(of: $0, quality: webcamQuality) }
        let cameraSettings = (bitrate: sent?.bitrate, layers: sent?.layers ?? [], codec: cameraTrack?.codec?.publishedCodec)
        for relay in relays.values {
            relay.update(camera: camOn ? sentCamera : nil, cameraSettings: cameraSettings, microphone: micOn ? sentMicrophone : nil,
                         share: shareOn ? shareSource : nil, shareSettings: shareSettings)
        }
    }

    /// Leaves every relay's room (the room closed).
    func stopAllRelays() {
        let running = relays.values.map(\.publisher)
        relays = [:]
        for publisher in running { Self.inBackground { publisher.leave(reason: .removePeerMediaRelayStop) } }
    }
}
