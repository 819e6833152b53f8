/// A livestream destination (`startLivestream` `outputs`). The stream key is a secret: it is
/// stored, handed to the job's process in its spec file, and never echoed back or put on a
/// command line.
public struct LivestreamOutput: Sendable, Codable, Equatable {
    public var url: String
    public var streamKey: String?

    public init(url: String, streamKey: String?) {
        self.url = url
        self.streamKey = streamKey
    }

    /// The URL the RTMP client connects to: the key appended as the last path segment, the way
    /// RTMP servers expect it (`rtmp://host/app` + `key` → `rtmp://host/app/key`).
    public var publishURL: String {
        guard let streamKey, !streamKey.isEmpty else { return url }
        return url.hasSuffix("/") ? url + streamKey : url + "/" + streamKey
    }

    /// Destinations one livestream may have.
    public static let maximumCount = 8

    /// Reads `outputs[index]` of a start request.
    static func validated(_ value: JSONValue, index: Int) throws(SpecError) -> LivestreamOutput {
        try validated(value, field: "outputs[\(index)]")
    }

    /// Reads a destination `{url, streamKey}`; errors name `field` (nil: the body's own members).
    public static func validated(_ value: JSONValue, field: String?) throws(SpecError) -> LivestreamOutput {
        let shown = field ?? "the destination"
        let prefix = field.map { $0 + "." } ?? ""
        guard value.objectValue != nil else { throw SpecError("\(shown) must be an object {url, streamKey}", category: .livestreamConfig) }
        guard let url = value["url"]?.stringValue, let scheme = url.split(separator: ":").first?.lowercased(),
              scheme == "rtmp" || scheme == "rtmps", url.lowercased().hasPrefix(scheme + "://"), url.count > scheme.count + 3, url.utf8.count <= 2048,
              !url.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else { throw SpecError("\(prefix)url must be an rtmp:// or rtmps:// URL of at most 2048 bytes", category: .livestreamConfig) }
        var key: String?
        if let streamKey = value["streamKey"], !streamKey.isNull {
            guard let text = streamKey.stringValue, text.utf8.count <= 512, !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
            else { throw SpecError("\(prefix)streamKey must be a string of at most 512 bytes", category: .livestreamConfig) }
            key = text
        }
        return LivestreamOutput(url: url, streamKey: key)
    }
}
