import Foundation

/// The places an operator lets room participants send a job's output or events: what a client
/// names over signalling (a livestream's RTMP servers, a `webhookUrl`, a `preSignedUrl`) must be
/// under one of these, so a guest can neither stream the room to a server of their choosing nor
/// make the server POST to any address (server-side request forgery). The REST API's callers
/// hold the API secret and are not held to it.
///
/// Each entry is a URL prefix: its scheme, host and port must match exactly and its path must be
/// a prefix of the destination's, at a `/` (`rtmp://live.example.com/app` allows
/// `rtmp://live.example.com/app/key`, not `rtmp://live.example.com/apple` or
/// `rtmp://live.example.com.evil/app`). No port means the scheme's own (1935 for RTMP); `:*`
/// allows any (`http://127.0.0.1:*`). An empty list allows nothing.
public struct DestinationAllowList: Sendable, Equatable {
    private struct Entry: Sendable, Equatable {
        var scheme: String
        var host: String
        var port: Int?
        var anyPort = false
        var path: String
    }

    private let entries: [Entry]
    /// The prefixes as given, for messages and logs.
    public let prefixes: [String]

    /// Nothing allowed.
    public static let none = DestinationAllowList(checked: [])

    public init(_ prefixes: [String]) throws(SpecError) {
        var entries: [Entry] = []
        for prefix in prefixes {
            guard let entry = DestinationAllowList.entry(prefix) else {
                throw SpecError("'\(prefix)' is not a URL prefix with a scheme and a host (rtmp://live.example.com/app)")
            }
            entries.append(entry)
        }
        self.entries = entries
        self.prefixes = prefixes
    }

    private init(checked entries: [Entry]) {
        self.entries = entries
        prefixes = []
    }

    public var isEmpty: Bool { entries.isEmpty }

    /// Whether `url` is under one of the prefixes.
    public func allows(_ url: String) -> Bool {
        guard let destination = DestinationAllowList.entry(url) else { return false }
        return entries.contains { allowed in
            guard allowed.scheme == destination.scheme, allowed.host == destination.host,
                  allowed.anyPort || (allowed.port ?? Self.defaultPort(allowed.scheme)) == (destination.port ?? Self.defaultPort(destination.scheme))
            else { return false }
            let base = allowed.path.hasSuffix("/") ? String(allowed.path.dropLast()) : allowed.path
            return base.isEmpty || destination.path == base || destination.path.hasPrefix(base + "/")
        }
    }

    private static func entry(_ text: String) -> Entry? {
        // `host:*` is this type's own spelling; URLComponents would refuse it.
        var text = text
        var anyPort = false
        if let wildcard = text.range(of: ":*"), let scheme = text.range(of: "://"), wildcard.lowerBound > scheme.upperBound,
           text[scheme.upperBound..<wildcard.lowerBound].allSatisfy({ $0 != "/" })
        {
            text.removeSubrange(wildcard)
            anyPort = true
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              let host = components.host?.lowercased(), !host.isEmpty, components.user == nil, components.password == nil
        else { return nil }
        return Entry(scheme: scheme, host: host, port: components.port, anyPort: anyPort, path: components.percentEncodedPath)
    }

    private static func defaultPort(_ scheme: String) -> Int? {
        ["http": 80, "https": 443, "rtmp": 1935, "rtmps": 443][scheme]
    }
}
