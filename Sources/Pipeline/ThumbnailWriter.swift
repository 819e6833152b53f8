import Encode
import Foundation
import JobSpec
import Log
import Media
import Outputs

/// Writes a JPEG of the composite every `intervalSeconds` of media (`config.thumbnails`):
/// `DIRECTORY/NNNNNN.jpg`, named by its media second, and `DIRECTORY/latest.jpg`, each written
/// to a temporary name and renamed, so a reader (the console, a CDN) never sees half a file.
/// It runs on the pipeline's thread as the picture is encoded: one scale and one small JPEG
/// per interval. A thumbnail that cannot be written is logged once and the recording goes on.
final class ThumbnailWriter {
    let directory: String
    let settings: ThumbnailSettings
    private let encoder: StillPictureEncoder
    private var next = 0.0
    private var failed = false
    private let logger: Logger
    private(set) var written = 0

    init(directory: String, settings: ThumbnailSettings, logger: Logger) throws {
        self.directory = directory
        self.settings = settings
        self.logger = logger
        encoder = StillPictureEncoder(width: settings.width)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    /// The composite at `mediaTime`; a thumbnail when one is due.
    func offer(_ image: PlanarImage, mediaTime: Double) {
        guard !failed, mediaTime >= next else { return }
        next = (mediaTime / settings.intervalSeconds).rounded(.down) * settings.intervalSeconds + settings.intervalSeconds
        do {
            let jpeg = try encoder.encode(image)
            try WholeFile.write(jpeg, to: directory + "/" + String(format: "%06d.jpg", Int(mediaTime.rounded(.down))))
            try WholeFile.write(jpeg, to: directory + "/latest.jpg")
            written += 1
        } catch {
            failed = true
            logger.error("thumbnails stop: one could not be written (the recording goes on)", ["error": .string("\(error)")])
        }
    }
}
