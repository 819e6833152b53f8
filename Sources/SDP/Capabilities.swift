/// What the Revue server (and its SDK) can send and receive: codecs in preference order and the
/// RTP header extensions it reads.
public struct Capabilities: Sendable, Equatable {
    /// Codecs in preference order.
    public var codecs: [CodecCapability]
    /// Header extensions Revue reads or writes.
    public var headerExtensions: [HeaderExtensionCapability]

    /// Capabilities from explicit lists.
    public init(codecs: [CodecCapability], headerExtensions: [HeaderExtensionCapability]) {
        self.codecs = codecs
        self.headerExtensions = headerExtensions
    }

    /// Opus, VP8 and H.264 (each with its feedback, RTX for video), and the MID, audio-level,
    /// abs-send-time and transport-wide-CC extensions, plus the RID extensions that simulcast
    /// needs (RFC 8852 §3) on video.
    public static let revue = Capabilities(
        codecs: [.opus, .vp8, .h264],
        headerExtensions: [
            HeaderExtensionCapability(uri: HeaderExtension.mid, kinds: [.audio, .video], id: 1),
            HeaderExtensionCapability(uri: HeaderExtension.audioLevel, kinds: [.audio], id: 2),
            HeaderExtensionCapability(uri: HeaderExtension.absSendTime, kinds: [.audio, .video], id: 3),
            HeaderExtensionCapability(uri: HeaderExtension.transportWideCC, kinds: [.audio, .video], id: 4),
            HeaderExtensionCapability(uri: HeaderExtension.rtpStreamID, kinds: [.video], id: 10),
            HeaderExtensionCapability(uri: HeaderExtension.repairedRTPStreamID, kinds: [.video], id: 11),
        ])

    /// The same without transport-wide congestion control (the `transport-cc` feedback and its
    /// extension), for a server that answers REMB only: offering TWCC and then not sending its
    /// feedback leaves Chromium's bandwidth estimate stuck.
    public func withoutTransportWideCC() -> Capabilities {
        var copy = self
        for index in copy.codecs.indices { copy.codecs[index].feedback.removeAll { $0.sameKind(as: .transportCC) } }
        copy.headerExtensions.removeAll { $0.uri == HeaderExtension.transportWideCC }
        return copy
    }

    /// The same with only the video codecs named (case-insensitive), in the order named: a
    /// server that takes fewer codecs from its publishers than Revue can (`revue serve
    /// --video-codecs`). Audio and the header extensions stay as they are.
    public func takingVideo(only names: [String]) -> Capabilities {
        var copy = self
        let video = names.compactMap { name in codecs.first { $0.kind == .video && $0.name.lowercased() == name.lowercased() } }
        copy.codecs = codecs.filter { $0.kind != .video } + video
        return copy
    }

    /// The codecs for one kind, in preference order.
    public func codecs(for kind: MediaKind) -> [CodecCapability] { codecs.filter { $0.kind == kind } }

    /// The header extensions for one kind.
    public func headerExtensions(for kind: MediaKind) -> [HeaderExtensionCapability] {
        headerExtensions.filter { $0.kinds.contains(kind) }
    }
}
