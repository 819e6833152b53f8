import Encode

/// Where encoded packets go: a file, HLS segments, an RTMP server.
public protocol PacketSink: AnyObject {
    /// A short name for logs and errors ("out.mp4", "hls:dir", "rtmp://host/app").
    var name: String { get }
    func write(_ packet: EncodedPacket) throws
    /// The stream ended cleanly: finish the output.
    func finish() throws
}

