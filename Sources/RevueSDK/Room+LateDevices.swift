import Capture

/// A camera or microphone still opening when `enableCam` or `unmuteMic` stopped waiting for it
/// (`DeviceOpening`: 2 s) is sent as black or silence until it opens. If it fails instead, the
/// seed's rule for `enableCam` holds: "If the camera then fails to open … the error is sent only
/// to onError". The device is turned off, so the others see its stream end.
extension Room {
    func watchForLateFailure(of track: CustomStreamTrack) {
        let opening: (@escaping @Sendable (VideoSDKError) -> Void) -> Void
        if let camera = track.videoTrack?.source as? PendingCamera {
            opening = camera.opening.whenFailed
        } else if let microphone = track.audioTrack?.source as? PendingMicrophone {
            opening = microphone.opening.whenFailed
        } else {
            return
        }
        opening { [weak self, weak track] error in
            Task { @MainActor in
                guard let self, let track else { return }
                if self.cameraTrack === track, self.camOn {
                    self.releaseCamera()
                } else if self.microphoneTrack === track, self.micOn {
                    self.releaseMicrophone()
                } else {
                    return
                }
                try? await self.reportMedia()
                self.report(error)
            }
        }
    }
}
