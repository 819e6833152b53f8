import Foundation
import Speech

/// Writes a transcript's four files into a directory. Each is written beside its final name and
/// renamed into place, so a crash leaves either no file or a whole one, never half a transcript.
public enum TranscriptFiles {
    /// Writes `transcript.json`, `.vtt`, `.srt` and `.txt`; returns their paths.
    @discardableResult
    public static func write(_ transcript: Transcript, to directory: String,
                             formats: [TranscriptFormat] = TranscriptFormat.allCases) throws(TranscriptionError) -> [String]
    {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw TranscriptionError("cannot make \(directory): \(error.localizedDescription)")
        }
        var written: [String] = []
        for format in formats {
            let path = (directory as NSString).appendingPathComponent(format.fileName)
            let partial = path + ".partial"
            do {
                try Data(format.render(transcript).utf8).write(to: URL(fileURLWithPath: partial))
                if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
                try FileManager.default.moveItem(atPath: partial, toPath: path)
            } catch {
                try? FileManager.default.removeItem(atPath: partial)
                throw TranscriptionError("cannot write \(path): \(error.localizedDescription)")
            }
            written.append(path)
        }
        return written
    }
}
