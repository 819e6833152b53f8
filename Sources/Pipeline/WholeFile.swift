import Foundation
import Outputs

/// A file written whole: to a temporary name, then renamed, so a reader (the API waiting for a
/// capture, a CDN polling `latest.jpg`, an editor opening a track manifest) never sees half a file.
enum WholeFile {
    static func write(_ bytes: [UInt8], to path: String) throws {
        let temporary = path + ".tmp"
        try Data(bytes).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else {
            throw OutputError(fault: .destination, output: path, message: "rename failed: \(String(cString: strerror(errno)))")
        }
    }
}
