import Foundation

/// Reading a manifest that names audio files beside it (a recording's `speakers.json`, a
/// per-participant recording's `manifest.json`): its JSON, and each file by name only, so a
/// manifest cannot point outside its directory.
public enum SpeakerManifest {
    /// The manifest at `path`, as `type`; `what` names it in the error ("speaker manifest").
    public static func decode<Manifest: Decodable>(_ type: Manifest.Type, at path: String, what: String) throws(TranscriptionError) -> Manifest {
        do {
            return try JSONDecoder().decode(type, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw TranscriptionError("cannot read the \(what) \(path): \(error)")
        }
    }

    /// The path of the file `name` beside the manifest at `path` (a relative `path` from the
    /// working directory).
    public static func file(_ name: String, beside path: String, what: String) throws(TranscriptionError) -> String {
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else {
            throw TranscriptionError("the \(what) \(path) names a file outside its directory")
        }
        return URL(fileURLWithPath: path).deletingLastPathComponent().path + "/" + name
    }

    /// A manifest's offset as a place on the clock: finite and not before 0.
    public static func offset(_ seconds: Double) -> Double {
        seconds.isFinite ? max(0, seconds) : 0
    }
}
