import Log
import SDP
import Transport

/// The camera section renegotiated (media thread): the codec and the simulcast layers are
/// offered at join from the configuration, and a later camera may ask for another codec or
/// for more layers than were offered (the SDK's H.264 or `multiStream` track in a room joined
/// without one). The section is offered again with new streams, and the server puts a new
/// track in place of the old one (docs/PUBLISHING.md "The camera section renegotiated").
extension RoomPublisher {
    /// Offers the camera section again when the camera asks (`setCamera`'s `codec` and
    /// `simulcast`) for a codec other than the section's, or for more simulcast layers than it
    /// offered. Its streams get new SSRCs, so nothing of the old ones is mistaken for the new;
    /// the camera sends nothing until the answer accepts them. Once the first answer is in:
    /// an offer is outstanding until then, and the answer calls this again.
    func moveCameraSectionIfAsked() {
        guard answeredAt != nil, offeredNow.contains(.video) else { return }
        let (askedCodec, askedLayers, camera) = lock.withLock { (wantedVideoCodec, wantedSimulcast, wantedCamera) }
        guard camera != nil else { return }
        let codec = askedCodec ?? videoCodec
        // Simulcast is VP8 only, at most three layers (RFC 8853 allows more; Revue's offers name q, h and f).
        let layers = codec == .vp8 ? Array((askedLayers ?? []).suffix(3)) : []
        let offered = videoStreams.allSatisfy { $0.rid != nil } ? videoStreams.count : 1
        guard codec != videoCodec || layers.count > offered else { return }
        guard Set(layers.map(\.rid)).count == layers.count, layers.allSatisfy({ RID.isValidID($0.rid) }) else {
            logger.error("the camera's layers cannot be offered: each needs its own RID of letters, digits, - and _ (RFC 8851 §10)")
            return
        }
        let old = Set(videoStreams.map(\.ssrc))
        videoStreams = layers.count > 1
            ? layers.map { ($0.rid, .random(in: 1...UInt32.max), .random(in: 1...UInt32.max)) }
            : [(nil, .random(in: 1...UInt32.max), .random(in: 1...UInt32.max))]
        let before = videoCodec
        videoCodec = codec
        layerSettings = layers.count > 1 ? layers : []
        // The encoders are made again for the new streams by `takeSources`.
        videoLayers = []
        // The old streams' tracks stay in the sender (packets of theirs may be queued); they are
        // no longer sent on, and say so (their reports stop, a BYE goes).
        tracks.removeAll { old.contains($0.ssrc) }
        endStreams(old)
        cameraStreamsOffered = false
        cameraMoveUnanswered = true
        renegotiationNeeded = true
        statistics.videoCodec = codec.encodingName
        lock.withLock {
            sourcesChanged = true
            cameraAnswer = .awaited
        }
        logger.info("the camera section is offered again", ["codec": .string("\(before.encodingName) → \(codec.encodingName)"),
                                                          "layers": .string("\(offered) → \(max(1, layers.count))")])
    }

    /// Stops the sender's streams of `ssrcs` with a BYE (RFC 3550 §6.6), so the server and
    /// its receivers stop expecting them and the sender reports them no more.
    func endStreams(_ ssrcs: Set<UInt32>) {
        guard !ssrcs.isEmpty, let goodbye = sender?.end(ssrcs: ssrcs, now: deviceTime(EventLoop.now())) else { return }
        link.sendRTCP(goodbye)
    }

    /// After an answer: what it made of the camera section, when the section was in its offer
    /// (for `waitForCamera`). An answer to an older offer, from before the section was offered
    /// again, leaves it awaited.
    func noteCameraAnswer() {
        guard offeredNow.contains(.video), cameraStreamsOffered else { return }
        let taken = tracks.contains { $0.mid == "1" && !$0.codec.isAudio }
        lock.withLock { cameraAnswer = taken ? .accepted(videoCodec) : .refused(videoCodec) }
    }

    /// After an answer to, or a refusal of, an offer that named the camera's new streams: the
    /// owner hears when they were not accepted (`Configuration.onCameraRefused`).
    func checkCameraMove(refusal: String? = nil) {
        guard cameraMoveUnanswered, cameraStreamsOffered else { return }
        cameraMoveUnanswered = false
        let accepted = tracks.contains { $0.mid == "1" && !$0.codec.isAudio }
        guard refusal != nil || !accepted else { return }
        let reason = refusal ?? "the server did not accept the camera as \(videoCodec.encodingName) in \(videoStreams.count) stream(s)"
        logger.error("the camera section offered again was not accepted; the camera sends nothing", ["reason": .string(reason)])
        let codec = refusal == nil ? videoCodec : nil
        if let codec { lock.withLock { _ = refusedCameras.insert(codec) } }
        configuration.onCameraRefused?(codec, reason)
    }
}
