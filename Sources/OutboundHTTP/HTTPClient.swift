import Foundation

/// A request in one call, for callers that want an answer and nothing more (the SDK's files
/// and pre-call test, a REST action forwarded to another node, `revue demo`, tests): an
/// `HTTPTransfer` with a deadline for the whole exchange, http:// and https:// only,
/// certificates verified.
public enum HTTPClient {
    public struct Response: Sendable {
        public let status: Int
        public let body: [UInt8]
        /// Header fields, names lower-cased, in order.
        public let headers: [(name: String, value: String)]

        public func header(_ name: String) -> String? {
            let lower = name.lowercased()
            return headers.last { $0.name == lower }?.value
        }
    }

    /// No answer, and why (curl's words: a refused connection, a certificate, a timeout).
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    public static func post(_ url: String, body: [UInt8], headers: [(String, String)], timeout: Double = 10,
                            caFile: String? = nil) throws(Failure) -> Response
    {
        try request("POST", url, body: body, headers: headers, timeout: timeout, caFile: caFile)
    }

    /// One request; any status is a response. For https, `caFile` (PEM) replaces the system's
    /// certificate authorities. The URL is sent as written (percent-encoding kept).
    public static func request(_ method: String, _ url: String, body: [UInt8] = [], headers: [(String, String)] = [],
                               timeout: Double = 10, caFile: String? = nil) throws(Failure) -> Response
    {
        guard let scheme = url.split(separator: ":", maxSplits: 1).first?.lowercased(), ["http", "https"].contains(scheme) else {
            throw Failure("only http:// and https:// URLs can be called: \(url)")
        }
        guard !url.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } == true }) else {
            throw Failure("the URL has spaces or control characters: \(url)")
        }
        var transfer = HTTPTransfer(method: method, url: url, headers: headers + [("User-Agent", "revue")],
                                    body: method == "GET" || method == "HEAD" ? .none : .bytes(body), caFile: caFile)
        transfer.connectTimeout = min(10, timeout)
        transfer.timeout = timeout
        transfer.maxResponseBytes = 16 * 1024 * 1024
        do {
            let response = try transfer.perform(operation: "\(method) \(url)")
            return Response(status: response.status, body: response.body, headers: response.headers)
        } catch {
            throw Failure(error.description)
        }
    }
}
