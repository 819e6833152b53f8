import Foundation
import Platform

/// Where the segmentation helper's Python lives: the virtual environment `scripts/bootstrap`
/// makes with MediaPipe 0.10.21 in it (the wheel that ships the selfie-segmentation models).
///
/// `REVUE_SEGMENTATION_VENV` names it; without it, Revue looks for `.revue-test/segmentation` in
/// the working directory and above the executable (a checkout).
public struct SegmentationRuntime: Sendable, Equatable {
    public var python: String

    public init(python: String) { self.python = python }

    /// The venv's directory (the tests' person picture, `astronaut.png`, is kept there too).
    public var directory: String { ((python as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent }

    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) throws(SegmentationError) -> SegmentationRuntime {
        if let venv = environment["REVUE_SEGMENTATION_VENV"], !venv.isEmpty {
            let python = venv + "/bin/python"
            guard FileManager.default.isExecutableFile(atPath: python) else {
                throw SegmentationError(.unavailable, "REVUE_SEGMENTATION_VENV is \(venv), which has no bin/python; run scripts/bootstrap or fix the path")
            }
            return SegmentationRuntime(python: python)
        }
        for candidate in CheckoutSearch.directories() {
            let python = candidate.appendingPathComponent(".revue-test/segmentation/bin/python").path
            if FileManager.default.isExecutableFile(atPath: python) { return SegmentationRuntime(python: python) }
        }
        throw SegmentationError(.unavailable, "person segmentation is not installed: run scripts/bootstrap (it installs MediaPipe 0.10.21 "
            + "into .revue-test/segmentation), or set REVUE_SEGMENTATION_VENV")
    }
}
