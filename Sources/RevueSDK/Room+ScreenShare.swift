import Capture
import Publisher

/// The screen share (the Room seed's `enableScreenShare` / `disableScreenShare`). On iOS it is
/// a broadcast extension's capture; a Linux server has no screen to capture, so the SDK shares a
/// synthetic screen: a test pattern at the profile's size and frame rate with "<name> (screen)"
/// on it, sent as VP8 in a section of its own (`RoomPublisher.publishShare`), as three simulcast
/// layers with `multiStream`, that everyone else receives as the participant's `SHARE` stream.
/// The server makes the sharer the presenter.
extension Room {
    /// Whether this client is sharing its screen.
    public var isScreenSharing: Bool { shareOn }

    /// Shares the screen with the profile `config` (`.h720p_15fps` by default).
    /// - Throws: 3065, 3035, 3066 outside SEND_AND_RECV, 3055 while a share is starting or
    ///   stopping, 3054 when sharing already; the server's refusal with its own code (someone
    ///   else presents, say), or 3013 when the share cannot be set up here (the synthetic
    ///   screen, the publisher gone); `onError` gets those last two too.
    public func enableScreenShare(_ config: CustomScreenShareTrackConfig = .h720p_15fps) async throws(VideoSDKError) {
        try await enableScreenShare(VideoSDK.createScreenShareVideoTrack(encoderConfig: config))
    }

    /// Shares the screen with a track from `VideoSDK.createScreenShareVideoTrack`; nil uses
    /// the default profile.
    public func enableScreenShare(_ customTrack: CustomStreamTrack?) async throws(VideoSDKError) {
        try checkJoined()
        guard localParticipant?.mode == .SEND_AND_RECV, let publisher else {
            throw VideoSDKError.ERROR_ACTION_NOT_SUPPORTED_IN_MODE.with("a \(localParticipant?.mode.rawValue ?? "") participant shares no screen")
        }
        guard !shareBusy else { throw VideoSDKError.ERROR_OPERATION_IN_PROGRESS.with("the screen share is starting or stopping") }
        guard !shareOn else { throw VideoSDKError.ERROR_ALREADY_IN_REQUESTED_STATE.with("the screen is shared already") }
        let track = customTrack ?? VideoSDK.createScreenShareVideoTrack()
        let config = track.screenShareConfig ?? .h720p_15fps
        shareBusy = true
        defer { shareBusy = false }
        let format = CameraFormat(width: config.width, height: config.height, framesPerSecond: config.frameRate)
        let screen: TestPatternCamera
        do {
            screen = try TestPatternCamera(name: "\(settings.participantName) (screen)", rgb: Self.screenColour, format: format)
        } catch {
            throw reported(VideoSDKError.ERROR_GET_DISPLAY_MEDIA.with("the screen could not be drawn: \(error)"))
        }
        let settings = Room.shareSettings(config, multiStream: track.multiStream)
        let box = PublicationIDBox()
        let result: Result<Void, DirectedVideoError> = await withCheckedContinuation { continuation in
            box.id = publisher.publishShare(source: screen, settings: settings) { continuation.resume(returning: $0) }
        }
        if case .failure(let error) = result {
            // The seed keeps 3013 for an app that is not set up for sharing; the server's
            // refusal is told with the server's code.
            if let code = error.serverCode { throw reported(VideoSDKError(code, "the screen share did not start: \(error.message)")) }
            throw reported(VideoSDKError.ERROR_GET_DISPLAY_MEDIA.with("the screen share did not start: \(error.message)"))
        }
        sharePublication = box.id
        shareSource = screen
        shareTrack = track
        shareOn = true
        track.publishing(true)
        do {
            try await reportMedia()
        } catch {
            releaseScreenShare()
            throw reported(error)
        }
    }

    /// Stops sharing: everyone gets `onStreamDisabled` of the share.
    /// - Throws: 3065, 3035, 3055 while it is starting, 3054 when not sharing.
    public func disableScreenShare() async throws(VideoSDKError) {
        try checkJoined()
        guard !shareBusy else { throw VideoSDKError.ERROR_OPERATION_IN_PROGRESS.with("the screen share is starting or stopping") }
        guard shareOn else { throw VideoSDKError.ERROR_ALREADY_IN_REQUESTED_STATE.with("screen sharing is off") }
        shareBusy = true
        defer { shareBusy = false }
        releaseScreenShare()
        try await reportMedia()
    }

    /// Stops sending the share and ends its track.
    func releaseScreenShare() {
        if let id = sharePublication { publisher?.unpublishVideo(publication: id) }
        sharePublication = nil
        shareSource = nil
        if let track = shareTrack {
            track.publishing(false)
            track.end(nil)
        }
        shareTrack = nil
        shareOn = false
    }

    /// How a screen share of `config` is encoded. A screen changes little and must stay
    /// legible: VBR over the full quantizer range, a keyframe every 10 s (a late joiner's PLI
    /// gets one sooner), at the profile's bitrate and frame rate. `multiStream` sends it as
    /// three simulcast layers (the seed's "three quality layers"): the profile's size at its
    /// bitrate, half the size at a quarter of it and a quarter of the size at a sixteenth (in
    /// proportion to the pixels), at least 60 and 30 kb/s, every layer at the profile's frame rate.
    nonisolated static func shareSettings(_ config: CustomScreenShareTrackConfig, multiStream: Bool) -> DirectedVideo {
        let encoding = DirectedVideo.VP8(bitrate: config.bitrate, cpuUsed: 8, quantizerMin: 4, quantizerMax: 56,
                                         keyframeInterval: config.frameRate * 10, rateControl: .vbr, cqLevel: 30, temporalLayers: 1)
        guard multiStream else { return DirectedVideo(codec: .vp8(encoding), maxFps: config.frameRate) }
        let rids = SimulcastEncoding.rids(count: 3)
        let layers = [SimulcastEncoding(rid: rids[0], scaleDown: 4, bitrate: max(30_000, config.bitrate / 16)),
                      SimulcastEncoding(rid: rids[1], scaleDown: 2, bitrate: max(60_000, config.bitrate / 4)),
                      SimulcastEncoding(rid: rids[2], scaleDown: 1, bitrate: config.bitrate)]
        return DirectedVideo(codec: .vp8(encoding), maxFps: config.frameRate, simulcast: layers)
    }

    /// The synthetic screen's background: a slate blue, unlike the cameras' colours.
    static let screenColour: UInt32 = 0x2F4F7F
}
