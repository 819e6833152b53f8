/// One rendition of a stream as a multivariant playlist lists it (RFC 8216 §4.3.4.2,
/// `EXT-X-STREAM-INF`): its media playlist and what a player chooses by.
public struct HLSVariant: Sendable, Equatable {
    /// Its media playlist, relative to the multivariant playlist.
    public var uri: String
    /// The peak segment bit rate, bits a second (`BANDWIDTH`).
    public var bandwidth: Int
    /// The average segment bit rate (`AVERAGE-BANDWIDTH`), when known.
    public var averageBandwidth: Int?
    /// RFC 6381 codec names (`CODECS`).
    public var codecs: [String]
    /// Picture size (`RESOLUTION`); nil for audio only.
    public var width: Int?
    public var height: Int?
    /// Pictures a second (`FRAME-RATE`), when known.
    public var framesPerSecond: Double?

    public init(uri: String, bandwidth: Int, averageBandwidth: Int? = nil, codecs: [String], width: Int? = nil, height: Int? = nil,
                framesPerSecond: Double? = nil)
    {
        self.uri = uri
        self.bandwidth = bandwidth
        self.averageBandwidth = averageBandwidth
        self.codecs = codecs
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
    }

    /// The `EXT-X-STREAM-INF` attributes, `SUBTITLES` naming `captionsGroup` when there is one.
    func attributes(captionsGroup: String?) -> String {
        var attributes = ["BANDWIDTH=\(max(1, bandwidth))"]
        if let averageBandwidth { attributes.append("AVERAGE-BANDWIDTH=\(max(1, averageBandwidth))") }
        if !codecs.isEmpty { attributes.append("CODECS=\"\(codecs.joined(separator: ","))\"") }
        if let width, let height, width > 0, height > 0 { attributes.append("RESOLUTION=\(width)x\(height)") }
        if let framesPerSecond, framesPerSecond > 0 { attributes.append("FRAME-RATE=" + HLSPlaylist.decimal(framesPerSecond)) }
        if let captionsGroup { attributes.append("SUBTITLES=\"\(captionsGroup)\"") }
        return attributes.joined(separator: ",")
    }
}
