import Capture
import Media
import Segmentation

/// What a camera track sends while its device is still opening after the 2 s wait
/// (`DeviceOpening`): black pictures at the track's size, then the device's pictures once it
/// opened, fitted to that size if the device's own differs (the encoder was set for the track's).
final class PendingCamera: CameraSource, Sendable {
    let format: CameraFormat
    let opening: DeviceOpening<any CameraSource>

    init(format: CameraFormat, opening: DeviceOpening<any CameraSource>) {
        self.format = format
        self.opening = opening
    }

    func frame(_ index: Int) -> VideoFrame {
        let time = Double(index) / Double(max(1, format.framesPerSecond))
        guard let device = opening.opened else { return VideoFrame(width: format.width, height: format.height, color: .black, mediaTime: time) }
        let picture = device.frame(index)
        guard picture.width != format.width || picture.height != format.height else { return picture }
        return CoverFit.fit(picture, width: format.width, height: format.height)
    }
}
