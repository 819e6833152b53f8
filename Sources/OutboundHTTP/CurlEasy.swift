import CCurl
import Foundation

/// One libcurl easy handle (`CURL *`), made for one transfer and freed in `deinit`
/// (curl_easy_cleanup). Callbacks reach Swift through a context object passed as curl's
/// user pointer, kept alive for the length of `perform`.
final class CurlEasy {
    private let handle: UnsafeMutableRawPointer?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    init() {
        _ = CurlGlobal.initialized
        handle = curl_easy_init()
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// The state of one transfer that curl's callbacks read and write.
    final class Context {
        var received: [UInt8] = []
        var headerLines: [String] = []
        var limit: Int
        var overflowed = false
        // The body being sent: bytes with a position, or a file with a position and what is left.
        var bytes: [UInt8] = []
        var position = 0
        var file: FileHandle?
        var fileRemaining: Int64 = 0
        var readFailure: String?

        init(limit: Int) { self.limit = limit }
    }

    func perform(_ transfer: HTTPTransfer, operation: String) throws(HTTPTransferError) -> HTTPTransfer.Response {
        guard let handle else { throw HTTPTransferError(.transport, operation, "curl_easy_init failed") }
        let context = Context(limit: transfer.maxResponseBytes)
        switch transfer.body {
        case .none:
            break
        case .bytes(let bytes):
            context.bytes = bytes
        case .file(let path, let offset, let length):
            guard let file = FileHandle(forReadingAtPath: path) else { throw HTTPTransferError(.localFile, operation, "cannot open \(path)") }
            do {
                try file.seek(toOffset: UInt64(offset))
            } catch {
                throw HTTPTransferError(.localFile, operation, "cannot seek in \(path): \(error)")
            }
            context.file = file
            context.fileRemaining = length
        }
        defer { try? context.file?.close() }
        // Without "Expect:" curl asks for 100-continue before a body over 1 MiB and waits a second
        // for it (Revue's own server, like many, answers the request instead): switched off,
        // except for signed requests, where curl 7.88 signs that empty header but does not send
        // it, and the server then answers SignatureDoesNotMatch.
        let expect: [(String, String)] = transfer.signing == nil && transfer.body.length > 0 ? [("Expect", "")] : []
        let headers = CurlHeaderList(transfer.headers + expect)
        var failed: String?
        func set(_ result: CURLcode, _ what: String) {
            if result != CURLE_OK && failed == nil { failed = "\(what): \(String(cString: curl_easy_strerror(result)))" }
        }
        set(revue_curl_setopt_string(handle, CURLOPT_URL, transfer.url), "CURLOPT_URL")
        set(revue_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1), "CURLOPT_NOSIGNAL")
        set(revue_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer), "CURLOPT_ERRORBUFFER")
        set(revue_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(transfer.connectTimeout * 1000)), "CURLOPT_CONNECTTIMEOUT_MS")
        set(revue_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"), "CURLOPT_PROTOCOLS_STR")
        set(revue_curl_setopt_long(handle, CURLOPT_SSLVERSION, revue_curl_sslversion_tls12()), "CURLOPT_SSLVERSION")
        if transfer.timeout > 0 { set(revue_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, Int(transfer.timeout * 1000)), "CURLOPT_TIMEOUT_MS") }
        set(revue_curl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1024), "CURLOPT_LOW_SPEED_LIMIT")
        set(revue_curl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, transfer.lowSpeedTime), "CURLOPT_LOW_SPEED_TIME")
        if let caFile = transfer.caFile { set(revue_curl_setopt_string(handle, CURLOPT_CAINFO, caFile), "CURLOPT_CAINFO") }
        set(revue_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headers.list), "CURLOPT_HTTPHEADER")
        if let signing = transfer.signing {
            // "aws:amz:REGION:SERVICE": curl computes the SigV4 Authorization header and
            // X-Amz-Date, and takes the payload hash from our x-amz-content-sha256 header.
            set(revue_curl_setopt_string(handle, CURLOPT_AWS_SIGV4, "aws:amz:\(signing.region):\(signing.service)"), "CURLOPT_AWS_SIGV4")
            set(revue_curl_setopt_string(handle, CURLOPT_USERNAME, signing.accessKeyID), "CURLOPT_USERNAME")
            set(revue_curl_setopt_string(handle, CURLOPT_PASSWORD, signing.secretAccessKey), "CURLOPT_PASSWORD")
        }
        let pointer = Unmanaged.passUnretained(context).toOpaque()
        set(revue_curl_setopt_callback(handle, CURLOPT_WRITEFUNCTION, curlWrite), "CURLOPT_WRITEFUNCTION")
        set(revue_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, pointer), "CURLOPT_WRITEDATA")
        set(revue_curl_setopt_callback(handle, CURLOPT_HEADERFUNCTION, curlHeader), "CURLOPT_HEADERFUNCTION")
        set(revue_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, pointer), "CURLOPT_HEADERDATA")
        switch transfer.method {
        case "GET":
            set(revue_curl_setopt_long(handle, CURLOPT_HTTPGET, 1), "CURLOPT_HTTPGET")
        case "HEAD":
            set(revue_curl_setopt_long(handle, CURLOPT_NOBODY, 1), "CURLOPT_NOBODY")
        default:
            // Every body goes through the read callback with its length announced, for PUT and
            // POST alike; the method is then named as it is.
            set(revue_curl_setopt_long(handle, CURLOPT_UPLOAD, 1), "CURLOPT_UPLOAD")
            set(revue_curl_setopt_off(handle, CURLOPT_INFILESIZE_LARGE, curl_off_t(transfer.body.length)), "CURLOPT_INFILESIZE_LARGE")
            set(revue_curl_setopt_callback(handle, CURLOPT_READFUNCTION, curlRead), "CURLOPT_READFUNCTION")
            set(revue_curl_setopt_pointer(handle, CURLOPT_READDATA, pointer), "CURLOPT_READDATA")
            if transfer.method != "PUT" { set(revue_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, transfer.method), "CURLOPT_CUSTOMREQUEST") }
        }
        if let failed { throw HTTPTransferError(.transport, operation, "could not set up the request: \(failed)") }
        let result = withExtendedLifetime((context, headers)) { curl_easy_perform(handle) }
        if let readFailure = context.readFailure { throw HTTPTransferError(.localFile, operation, readFailure) }
        guard result == CURLE_OK else {
            let detail = String(cString: errorBuffer)
            throw HTTPTransferError(.transport, operation, detail.isEmpty ? String(cString: curl_easy_strerror(result)) : detail)
        }
        var status = 0
        _ = revue_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        // Headers of every response curl read (a 100 Continue, then the real one): keep the last block.
        var lines: [String] = []
        for line in context.headerLines {
            if line.hasPrefix("HTTP/") { lines = [] } else { lines.append(line) }
        }
        let fields = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return HTTPTransfer.Response(status: status, headers: fields, body: context.received)
    }
}

private let curlWrite: revue_curl_data_callback = { buffer, size, count, pointer in
    guard let buffer, let pointer else { return 0 }
    let context = Unmanaged<CurlEasy.Context>.fromOpaque(pointer).takeUnretainedValue()
    let length = size * count
    // Past the limit the answer is read and dropped: a big body is not a failed request.
    let kept = max(0, min(length, context.limit - context.received.count))
    if kept < length { context.overflowed = true }
    buffer.withMemoryRebound(to: UInt8.self, capacity: length) { context.received.append(contentsOf: UnsafeBufferPointer(start: $0, count: kept)) }
    return length
}

private let curlHeader: revue_curl_data_callback = { buffer, size, count, pointer in
    guard let buffer, let pointer else { return 0 }
    let context = Unmanaged<CurlEasy.Context>.fromOpaque(pointer).takeUnretainedValue()
    let length = size * count
    let line = buffer.withMemoryRebound(to: UInt8.self, capacity: length) { String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self) }
    let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
    if !trimmed.isEmpty && context.headerLines.count < 500 { context.headerLines.append(trimmed) }
    return length
}

private let curlRead: revue_curl_data_callback = { buffer, size, count, pointer in
    guard let buffer, let pointer else { return revue_curl_readfunc_abort() }
    let context = Unmanaged<CurlEasy.Context>.fromOpaque(pointer).takeUnretainedValue()
    let capacity = size * count
    if let file = context.file {
        let wanted = Int(min(Int64(capacity), context.fileRemaining))
        guard wanted > 0 else { return 0 }
        let data: Data
        do {
            data = try file.read(upToCount: wanted) ?? Data()
        } catch {
            context.readFailure = "cannot read the file: \(error)"
            return revue_curl_readfunc_abort()
        }
        guard !data.isEmpty else {
            context.readFailure = "the file ended \(context.fileRemaining) bytes early (it changed while it was sent)"
            return revue_curl_readfunc_abort()
        }
        data.withUnsafeBytes { raw in
            guard let source = raw.bindMemory(to: UInt8.self).baseAddress else { return }
            buffer.withMemoryRebound(to: UInt8.self, capacity: data.count) { $0.update(from: source, count: data.count) }
        }
        context.fileRemaining -= Int64(data.count)
        return data.count
    }
    let left = context.bytes.count - context.position
    let length = min(left, capacity)
    guard length > 0 else { return 0 }
    context.bytes.withUnsafeBufferPointer { source in
        buffer.withMemoryRebound(to: UInt8.self, capacity: length) { target in
            if let base = source.baseAddress { target.update(from: base + context.position, count: length) }
        }
    }
    context.position += length
    return length
}
