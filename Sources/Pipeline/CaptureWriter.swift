import Encode
import Foundation
import JobSpec
import Log
import Media
import Outputs

/// Writes the still pictures a job's controls ask for (`JobControl.captures`; docs/JOBS.md,
/// "Captures"): each one once, from the next picture the run composites, scaled and encoded as
/// asked, under a temporary name and renamed, so the API that waits for the file never reads
/// half of it. It runs on the pipeline's thread; a capture that cannot be written is logged and
/// dropped (the API's wait for it ends in an error), and the recording goes on.
final class CaptureWriter {
    private var pending: [CaptureRequest] = []
    /// Ids asked for so far (a control repeats the requests of the last minute).
    private var seen: Set<String> = []
    private let logger: Logger
    private(set) var written = 0

    init(logger: Logger) {
        self.logger = logger
    }

    /// Takes the requests it has not seen; those without a path (a worker that did not place
    /// them) are not writable and are dropped.
    func ask(_ requests: [CaptureRequest]) {
        for request in requests where seen.insert(request.id).inserted {
            guard request.path != nil else {
                logger.warning("a capture came without a path; not written", ["captureId": .string(request.id)])
                continue
            }
            pending.append(request)
        }
        // The set only has to outlive a request's minute in the controls.
        if seen.count > 10_000 { seen = Set(pending.map(\.id)) }
    }

    var hasPending: Bool { !pending.isEmpty }

    /// The composite as it is encoded: every pending capture is written from it.
    func offer(_ image: PlanarImage) {
        guard !pending.isEmpty else { return }
        let requests = pending
        pending.removeAll()
        for request in requests {
            guard let path = request.path else { continue }
            do {
                let encoder = StillPictureEncoder(format: request.format == .png ? .png : .jpeg, width: request.width, height: request.height,
                                                  quality: 3)
                let bytes = try encoder.encode(image)
                try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path,
                                                        withIntermediateDirectories: true)
                try WholeFile.write(bytes, to: path)
                written += 1
                logger.info("capture written", ["captureId": .string(request.id), "bytes": .of(bytes.count)])
            } catch {
                logger.error("a capture could not be written", ["captureId": .string(request.id), "error": .string("\(error)")])
            }
        }
    }
}
