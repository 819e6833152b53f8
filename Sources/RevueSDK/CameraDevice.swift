import Media
import Capture

/// A camera the SDK can open: what `getCameras()` lists and what opening it makes. The
/// synthetic pattern draws the participant's name, so a room opens it again with the name.
struct CameraDevice: Sendable {
    enum Backing: Sendable {
        /// `TestPatternCamera`: a colour (0xRRGGBB), a moving square and the name.
        case testPattern(rgb: UInt32)
        /// A file, looped: a y4m through `Y4MFileCamera` (its own size and rate), any other file
        /// Revue's FFmpeg reads through `MediaFileCamera` (its own size, 30 fps).
        case file(path: String)
    }

    let info: CameraDeviceInfo
    let backing: Backing

    static let testPatternID = "revue-test-pattern"
    static let testPattern = CameraDevice(info: CameraDeviceInfo(label: "Test Pattern", deviceId: testPatternID, facingMode: .front),
                                          backing: .testPattern(rgb: 0x3070C0))

    /// Opens the camera for pictures of `config`'s size and rate (a file camera has its own).
    /// - Throws: 3026 when the camera cannot be opened (a missing or unreadable file).
    func open(_ config: CustomCameraTrackConfig, name: String) throws(VideoSDKError) -> any CameraSource {
        do {
            switch backing {
            case .testPattern(let rgb):
                return try TestPatternCamera(name: name, rgb: rgb,
                                             format: CameraFormat(width: config.width, height: config.height, framesPerSecond: config.frameRate))
            case .file(let path) where path.lowercased().hasSuffix(".y4m"):
                return try Y4MFileCamera(path: path)
            case .file(let path):
                return try MediaFileCamera(path: path)
            }
        } catch {
            throw VideoSDKError.ERROR_VIDEO_SOURCE_INITIATION_FAILED.with("\(info.label) could not be opened: \(error)")
        }
    }
}
