import CFFmpeg
import Encode

/// The encoded streams an output receives: their parameters and the time base of their packets.
public struct StreamLayout: Sendable {
    public struct Stream: Sendable {
        public let kind: EncodedPacket.Stream
        public let parameters: CodecParameters
        public var timeBase: AVRational { parameters.timeBase }

        public init(kind: EncodedPacket.Stream, parameters: CodecParameters) {
            self.kind = kind
            self.parameters = parameters
        }
    }

    public let streams: [Stream]

    public init(streams: [Stream]) {
        self.streams = streams
    }

    public var hasVideo: Bool { streams.contains { $0.kind == .video } }
}
