import APIModels
import Foundation
import HTTP
import Jobs

/// Serves recordings, HLS files and thumbnails from the storage directory under `/files/`, with byte
/// ranges (RFC 9110 §14) so players can seek in an MP4. Only through a signed URL
/// (`FileURLSigner`): without a signature, with a wrong one or an expired one the answer is 403.
struct FileServer {
    let root: String
    let signer: FileURLSigner
    static let servedFolders: Set<String> = ["recordings", "hls", "thumbnails", "transcriptions", "captures"]

    func serve(_ request: HTTPRequest, relativePath: String, now: Date = Date()) -> HTTPResponse {
        let granted: String
        do {
            granted = try signer.verify(relativePath.split(separator: "/").map(String.init), now: now)
        } catch {
            var response = JSON.error(ServiceError(status: 403, code: 4000, name: "FORBIDDEN", message: error.description))
            response.headers.append(("Access-Control-Allow-Origin", "*"))
            return response
        }
        let components = granted.split(separator: "/")
        // Only outputs are served; a job's events and logs under jobs/ stay private.
        guard let top = components.first, FileServer.servedFolders.contains(String(top)),
              !components.contains(where: { $0 == ".." || $0 == "." || $0.hasPrefix(".") })
        else {
            return JSON.error(.notFound("no such file"))
        }
        let path = root + "/" + components.joined(separator: "/")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
              let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value
        else { return JSON.error(.notFound("no such file")) }
        var headers: [(name: String, value: String)] = [("Content-Type", FileServer.contentType(path)), ("Accept-Ranges", "bytes")]
        if path.hasSuffix(".m3u8") { headers.append(("Cache-Control", "no-cache")) }
        headers.append(("Access-Control-Allow-Origin", "*"))
        guard let range = request.header("range") else {
            return HTTPResponse(status: 200, headers: headers, body: .file(path: path, offset: 0, count: size))
        }
        guard let (start, end) = FileServer.parseRange(range, size: size) else {
            return HTTPResponse(status: 416, headers: [("Content-Range", "bytes */\(size)")], body: .bytes([]))
        }
        headers.append(("Content-Range", "bytes \(start)-\(end)/\(size)"))
        return HTTPResponse(status: 206, headers: headers, body: .file(path: path, offset: start, count: end - start + 1))
    }

    /// One `bytes=` range: `a-b`, `a-` or `-n`. Several ranges, or one outside the file, is nil.
    static func parseRange(_ header: String, size: Int64) -> (Int64, Int64)? {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("bytes="), size > 0 else { return nil }
        let spec = trimmed.dropFirst(6)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let first = spec[..<dash].trimmingCharacters(in: .whitespaces), last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        if first.isEmpty {
            guard let suffix = Int64(last), suffix > 0 else { return nil }
            return (max(0, size - suffix), size - 1)
        }
        guard let start = Int64(first), start >= 0, start < size else { return nil }
        if last.isEmpty { return (start, size - 1) }
        guard let end = Int64(last), end >= start else { return nil }
        return (start, min(end, size - 1))
    }

    static func contentType(_ path: String) -> String {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "mp4": "video/mp4"
        // A per-participant recording's tracks (config.mode "tracks").
        case "webm": "video/webm"
        case "mkv": "video/x-matroska"
        case "m4s": "video/iso.segment"
        case "m3u8": "application/vnd.apple.mpegurl"
        case "json": "application/json"
        // Transcripts and caption segments: a `<track>` takes WebVTT only as text/vtt.
        case "vtt": "text/vtt; charset=utf-8"
        case "srt": "application/x-subrip; charset=utf-8"
        case "txt": "text/plain; charset=utf-8"
        case "md": "text/markdown; charset=utf-8"
        case "jpg": "image/jpeg"
        case "png": "image/png"
        default: "application/octet-stream"
        }
    }
}
