import Encode
import Media

/// Where encoded packets go: a file, HLS segments, an RTMP server.
public protocol PacketSink: AnyObject {
    /// A short name for logs and errors ("out.mp4", "hls:dir", "rtmp://host/app").
    var name: String { get }
    func write(_ packet: EncodedPacket) throws
    /// A caption of the room's live transcription, its times in media seconds; an output that
    /// carries captions (HLS) keeps it, the others ignore it.
    func add(caption: Caption)
    /// The room's live transcription is on: captions will follow (an HLS output holds its
    /// low-latency players back far enough to show them; the others ignore it).
    func expectCaptions()
    /// A line of the file's metadata (`comment`: why the job ended); an output whose container
    /// keeps metadata (MP4) writes it when it finishes, the others ignore it.
    func add(metadata key: String, value: String)
    /// The stream ended cleanly: finish the output.
    func finish() throws
}

extension PacketSink {
    public func add(caption: Caption) {}
    public func expectCaptions() {}
    public func add(metadata key: String, value: String) {}
}
