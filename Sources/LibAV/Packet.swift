import CFFmpeg

/// Owns an `AVPacket` (av_packet_alloc / av_packet_free).
// @unchecked Sendable: owns an AVPacket, used by one thread at a time (that of the codec or muxer holding it)
public final class Packet: @unchecked Sendable {
    public let pointer: UnsafeMutablePointer<AVPacket>

    public init() {
        guard let packet = av_packet_alloc() else { fatalError("av_packet_alloc: out of memory") }
        pointer = packet
    }

    /// A packet holding a copy of `bytes` (av_new_packet, which adds the zeroed padding decoders
    /// may read past the end).
    public convenience init(copying bytes: [UInt8]) throws(AVError) {
        self.init()
        try check(av_new_packet(pointer, Int32(bytes.count)), "av_new_packet")
        bytes.withUnsafeBufferPointer { source in
            if let base = source.baseAddress, let data = pointer.pointee.data { data.update(from: base, count: bytes.count) }
        }
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }

    public var pts: Int64 {
        get { pointer.pointee.pts }
        set { pointer.pointee.pts = newValue }
    }

    public var dts: Int64 {
        get { pointer.pointee.dts }
        set { pointer.pointee.dts = newValue }
    }

    public var duration: Int64 {
        get { pointer.pointee.duration }
        set { pointer.pointee.duration = newValue }
    }

    public var streamIndex: Int32 {
        get { pointer.pointee.stream_index }
        set { pointer.pointee.stream_index = newValue }
    }

    public var isKeyframe: Bool {
        get { pointer.pointee.flags & revue_pkt_flag_key() != 0 }
        set {
            if newValue { pointer.pointee.flags |= revue_pkt_flag_key() } else { pointer.pointee.flags &= ~revue_pkt_flag_key() }
        }
    }

    public var size: Int { Int(pointer.pointee.size) }

    /// A copy of the payload bytes.
    public var bytes: [UInt8] {
        guard let data = pointer.pointee.data, pointer.pointee.size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(pointer.pointee.size)))
    }

    /// av_packet_unref: drops the payload so the packet can be reused.
    public func unref() { av_packet_unref(pointer) }
}
