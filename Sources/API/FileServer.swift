import APIModels
import Foundation
import HLS
import HTTP
import Jobs

/// Serves recordings, HLS files and thumbnails from the storage directory under `/files/`, with byte
/// ranges (RFC 9110 §14) so players can seek in an MP4. Only through a signed URL
/// (`FileURLSigner`): without a signature, with a wrong one or an expired one the answer is 403.
///
/// A live HLS playlist asked for with low-latency delivery directives, and a hinted part not
/// written yet, are answered by `HLSHeldRequests` (`heldResult`).
struct FileServer {
    let root: String
    let signer: FileURLSigner
    var held = HLSHeldRequests()
    static let servedFolders: Set<String> = ["recordings", "hls", "thumbnails", "transcriptions", "captures"]

    /// The path under `/files/` a request names.
    static func relativePath(of request: HTTPRequest) -> String {
        request.path.split(separator: "/").dropFirst().joined(separator: "/")
    }

    func serve(_ request: HTTPRequest, relativePath: String, now: Date = Date()) -> HTTPResponse {
        switch resolve(relativePath, now: now) {
        case .failure(let refusal): refusal.response
        case .success(let path): serveFile(request, path: path)
        }
    }

    /// The answer of a request low-latency HLS may hold: a playlist request with `_HLS_`
    /// directives, or one for a part that is not on disk yet. Nil for any other request (served
    /// by `serve` as usual).
    func heldResult(_ request: HTTPRequest, relativePath: String, now: Date = Date()) -> HTTPResult? {
        guard request.method == "GET" else { return nil }
        let isPlaylist = relativePath.hasSuffix(".m3u8")
        if isPlaylist {
            guard request.query.keys.contains(where: { $0.hasPrefix("_HLS_") }) else { return nil }
        } else {
            guard let name = relativePath.split(separator: "/").last, HLSPart.isPartFile(String(name)) else { return nil }
        }
        let path: String
        switch resolve(relativePath, now: now) {
        case .failure(let refusal): return .response(refusal.response)
        case .success(let resolved): path = resolved
        }
        if isPlaylist {
            do {
                return held.playlist(at: path, directives: try HLSDeliveryDirectives(query: request.query))
            } catch {
                return .response(HLSHeldRequests.refusal(error.description))
            }
        }
        guard !FileManager.default.fileExists(atPath: path) else { return nil }
        return held.part(at: path) { serveFile(request, path: path) }
    }

    struct Refusal: Error {
        let response: HTTPResponse
    }

    /// The file a signed relative path names, or the answer that refuses it.
    private func resolve(_ relativePath: String, now: Date) -> Result<String, Refusal> {
        let granted: String
        do {
            granted = try signer.verify(relativePath.split(separator: "/").map(String.init), now: now)
        } catch {
            var response = JSON.error(ServiceError(status: 403, code: 4000, name: "FORBIDDEN", message: error.description))
            response.headers.append(("Access-Control-Allow-Origin", "*"))
            return .failure(Refusal(response: response))
        }
        let components = granted.split(separator: "/")
        // Only outputs are served; a job's events and logs under jobs/ stay private.
        guard let top = components.first, FileServer.servedFolders.contains(String(top)),
              !components.contains(where: { $0 == ".." || $0 == "." || $0.hasPrefix(".") })
        else {
            return .failure(Refusal(response: JSON.error(.notFound("no such file"))))
        }
        return .success(root + "/" + components.joined(separator: "/"))
    }

    private func serveFile(_ request: HTTPRequest, path: String) -> HTTPResponse {
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
