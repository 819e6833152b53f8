import Foundation

/// The pre-call test (seed 001): the camera and the microphone give media, then the network to
/// the room server is measured both ways (`PreCallTest`, against `/v2/precall/…`).
extension VideoSDK {
    /// Checks the camera and microphone, then measures the upload and download to the room
    /// server for `samplingDuration`. `onStatsChange` gets the latest figures on the main actor
    /// about once a second. Cancelling the calling task stops it, as `stopPreCallTest()` does;
    /// the result then says `aborted`.
    /// - Throws: `PreCallTestError`: ERROR_PRECALL_INVALID_TOKEN (empty, or refused by the
    ///   server), ERROR_PRECALL_INVALID_SAMPLING_DURATION, ERROR_PRECALL_TEST_ALREADY_RUNNING,
    ///   ERROR_PRECALL_AFTER_INIT (a room is joined or joining), ERROR_PRECALL_NETWORK (the
    ///   server could not be reached).
    public static func runPreCallTest(_ options: PreCallTestOptions,
                                      onStatsChange: (@MainActor @Sendable (PreCallNetworkQuality) -> Void)? = nil) async throws(PreCallTestError)
        -> PreCallTestResult
    {
        guard !options.token.isEmpty else { throw PreCallTestError.invalidToken("the token is empty") }
        guard PreCallTestOptions.samplingDurations.contains(options.samplingDuration) else {
            throw PreCallTestError.invalidDuration(options.samplingDuration)
        }
        let test = try PreCallTest(signalingURL: options.signalingURL ?? state.with { $0.signalingURL }, token: options.token,
                                   duration: Double(options.samplingDuration) / 1000)
        let refusal: PreCallTestError? = state.with { fields in
            if fields.roomsIn > 0 { return .afterInit }
            if fields.preCallTest != nil { return .alreadyRunning }
            fields.preCallTest = test
            return nil
        }
        if let refusal { throw refusal }
        defer { state.with { if $0.preCallTest === test { $0.preCallTest = nil } } }

        let camera = await checkCamera(options.cameraTrack)
        let microphone = await checkMicrophone(options.microphoneTrack)
        let measured: Result<PreCallNetworkQuality?, PreCallTestError> = await withTaskCancellationHandler {
            do throws(PreCallTestError) {
                return .success(try await test.run { quality in
                    guard let onStatsChange else { return }
                    Task { @MainActor in onStatsChange(quality) }
                })
            } catch {
                return .failure(error)
            }
        } onCancel: {
            test.requestStop()
        }
        let quality = try measured.get()
        return PreCallTestResult(camera: camera, microphone: microphone, networkQuality: quality, aborted: test.isStopped)
    }

    /// Stops the running pre-call test and returns once it has stopped; nothing when none runs.
    public static func stopPreCallTest() async {
        guard let test = state.with({ $0.preCallTest }) else { return }
        await test.stop()
    }

    /// How long the pre-call test waits for a device it opens: it tells whether the device
    /// works, so it waits past the calls' 2 s.
    static let preCallPatience: Double = 10

    /// The camera gives a picture: `given`, or the selected camera opened at 360p (kept open
    /// and returned when it passes).
    private static func checkCamera(_ given: CustomStreamTrack?) async -> PreCallTestResult.Device {
        do throws(VideoSDKError) {
            let track: CustomStreamTrack
            if let given {
                track = given
            } else {
                track = try await makeCameraTrack(encoderConfig: .h360p_w640p, facingMode: .front, multiStream: false,
                                            cameraId: state.with { $0.selectedCameraID }, maxLayer: .MAX_LAYER_3, bitrateMode: .BALANCED,
                                            codec: .VP8, name: "", patience: Self.preCallPatience)
            }
            guard !track.isEnded, let source = track.videoTrack?.source else {
                return PreCallTestResult.Device(passed: false, track: given, error: .ERROR_CUSTOM_VIDEO_TRACK_ENDED)
            }
            // Black pictures of a camera still opening are no proof that it works.
            if let pending = source as? PendingCamera, pending.opening.opened == nil {
                if given == nil { track.stop() }
                return PreCallTestResult.Device(passed: false, track: given, error: VideoSDKError.ERROR_VIDEO_SOURCE_INITIATION_FAILED.with(
                    "the camera did not open within \(Int(preCallPatience)) s"))
            }
            let picture = source.frame(0)
            return PreCallTestResult.Device(passed: picture.width > 0 && picture.height > 0, track: track, error: nil)
        } catch {
            return PreCallTestResult.Device(passed: false, track: nil, error: error)
        }
    }

    /// The microphone gives 20 ms of sound: `given`, or the selected microphone.
    private static func checkMicrophone(_ given: CustomStreamTrack?) async -> PreCallTestResult.Device {
        do throws(VideoSDKError) {
            let track: CustomStreamTrack
            if let given {
                track = given
            } else {
                track = try await makeMicrophoneTrack(encoderConfig: .speech_standard, microphoneId: nil, noiseConfig: nil,
                                                      patience: Self.preCallPatience)
            }
            guard !track.isEnded, let source = track.audioTrack?.source else {
                return PreCallTestResult.Device(passed: false, track: given, error: .ERROR_CUSTOM_AUDIO_TRACK_ENDED)
            }
            if let pending = source as? PendingMicrophone, pending.opening.opened == nil {
                if given == nil { track.stop() }
                return PreCallTestResult.Device(passed: false, track: given, error: VideoSDKError.ERROR_MICROPHONE_IN_USE.with(
                    "the microphone did not open within \(Int(preCallPatience)) s"))
            }
            return PreCallTestResult.Device(passed: source.samples(from: 0, count: 960, channels: 1).count == 960, track: track, error: nil)
        } catch {
            return PreCallTestResult.Device(passed: false, track: nil, error: error)
        }
    }
}
