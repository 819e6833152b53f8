import CFFmpeg
import Encode
import LibAV

/// libavformat's MP4 muxer in fragmented mode (`frag_custom`, `empty_moov`,
/// `default_base_moof`), writing into memory: the caller gets the initialization bytes (ftyp +
/// moov) once, and then decides where each fragment (moof + mdat) ends and where its bytes go.
/// The MP4 recording and the HLS (CMAF) segments are both made by it.
// @unchecked Sendable: owns an AVFormatContext and AVIOContext, used by one thread at a time (its output's thread)
public final class FragmentedMP4Muxer: @unchecked Sendable {
    private let io: CustomIOContext
    private let muxer: OutputFormatContext
    private var streamIndex: [EncodedPacket.Stream: (index: Int, timeBase: AVRational)] = [:]
    private let packet = Packet()
    /// ftyp + moov.
    public let initialization: [UInt8]
    /// Media seconds of the first packet in the fragment being built; nil when it is empty.
    public private(set) var fragmentStart: Double?
    /// Media seconds just after the last packet written.
    public private(set) var lastTime: Double = 0
    public let hasVideo: Bool

    public init(streams: StreamLayout) throws(AVError) {
        io = try CustomIOContext()
        muxer = try OutputFormatContext(format: "mp4", io: io)
        for stream in streams.streams {
            let index = try muxer.addStream(parameters: stream.parameters.pointer, timeBase: stream.timeBase)
            streamIndex[stream.kind] = (index, stream.timeBase)
        }
        hasVideo = streams.hasVideo
        try muxer.open(url: "", options: ["movflags": "+frag_custom+empty_moov+default_base_moof"])
        initialization = io.take()
    }

    /// A packet's time in seconds.
    public func time(of encoded: EncodedPacket) -> Double {
        guard let timeBase = streamIndex[encoded.stream]?.timeBase else { return 0 }
        return Double(encoded.pts) * Double(timeBase.num) / Double(timeBase.den)
    }

    /// A duration in a stream's time base, in seconds.
    public func seconds(_ duration: Int64, of stream: EncodedPacket.Stream) -> Double {
        guard let timeBase = streamIndex[stream]?.timeBase else { return 0 }
        return Double(duration) * Double(timeBase.num) / Double(timeBase.den)
    }

    /// Adds a packet to the current fragment.
    public func write(_ encoded: EncodedPacket) throws(AVError) {
        guard let target = streamIndex[encoded.stream] else { return }
        packet.unref()
        try check(av_new_packet(packet.pointer, Int32(encoded.data.count)), "av_new_packet")
        encoded.data.withUnsafeBufferPointer { source in
            if let base = source.baseAddress, let data = packet.pointer.pointee.data { data.update(from: base, count: encoded.data.count) }
        }
        packet.pts = encoded.pts
        packet.dts = encoded.dts
        packet.duration = encoded.duration
        packet.isKeyframe = encoded.isKeyframe
        let seconds = time(of: encoded)
        if fragmentStart == nil { fragmentStart = seconds }
        lastTime = max(lastTime, seconds + Double(encoded.duration) * Double(target.timeBase.num) / Double(target.timeBase.den))
        // Packets arrive in time order from one encoder per stream; the muxer needs no
        // interleaving queue, so a fragment holds exactly what was written before the cut.
        try muxer.write(packet, streamIndex: target.index, from: target.timeBase, interleaved: false)
    }

    /// Ends the current fragment and returns its bytes (moof + mdat), or nothing if it is empty.
    public func cutFragment() throws(AVError) -> [UInt8] {
        guard fragmentStart != nil else { return [] }
        try muxer.flush()
        fragmentStart = nil
        return io.take()
    }

    /// Ends the last fragment and the file (the trailer's bytes follow it).
    public func finish() throws(AVError) -> [UInt8] {
        var bytes = try cutFragment()
        try muxer.finish()
        bytes += io.take()
        return bytes
    }
}
