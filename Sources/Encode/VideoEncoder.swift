import CFFmpeg
import LibAV
import Media

/// H.264 with libx264 through libavcodec: `veryfast`, no B-frames (so pts equals dts and the
/// first picture goes out without delay), a fixed GOP of 2 s with no scene-cut keyframes (so
/// HLS segments line up), and a VBV cap of 1.5× the target bitrate for streaming.
// @unchecked Sendable: owns an AVCodecContext (libx264), used by one thread at a time (the recording pipeline's)
public final class VideoEncoder: @unchecked Sendable {
    public let preset: OutputPreset
    public let parameters: CodecParameters
    private let context: CodecContext
    private let frame = Frame()
    private let packet = Packet()
    private var nextIndex: Int64 = 0

    /// `threads` 1: x264 encodes on the calling thread. A job needs a tenth of a core for x264
    /// at 720p30, so more threads would buy no speed that matters (and the same CPU in all:
    /// measured equal within 5 %), and they cost 24 MB for their pictures, 1.1–1.4 dB of luma
    /// PSNR on the fixtures (frame threads predict rate control less well; the same on detailed
    /// content), and the output's repeatability (x264's ABR with frame threads is not
    /// deterministic).
    /// `firstIndex`: the pts of its first picture (an encoder that starts later on a timeline
    /// others share, as a composite branch's does, counts on from where it joins).
    public init(preset: OutputPreset, threads: Int = 1, firstIndex: Int64 = 0) throws(AVError) {
        self.preset = preset
        nextIndex = firstIndex
        context = try CodecContext(encoderNamed: "libx264")
        let codec = context.pointer
        codec.pointee.width = Int32(preset.size.width)
        codec.pointee.height = Int32(preset.size.height)
        codec.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        codec.pointee.time_base = AVRational(num: 1, den: Int32(preset.framesPerSecond))
        codec.pointee.framerate = AVRational(num: Int32(preset.framesPerSecond), den: 1)
        codec.pointee.bit_rate = Int64(preset.videoBitrate)
        codec.pointee.rc_max_rate = Int64(preset.videoBitrate) * 3 / 2
        codec.pointee.rc_buffer_size = Int32(preset.videoBitrate * 2)
        // The encoder places the GOP's keyframes itself, at every multiple of `gopLength` of the
        // timeline (`encode`); x264 is told never to, so a keyframe forced in between (a job
        // joining or resuming on a shared encode) does not move the cadence that HLS segments
        // are cut on.
        codec.pointee.gop_size = Int32(preset.gopLength * 10_000)
        codec.pointee.keyint_min = Int32(preset.gopLength)
        codec.pointee.max_b_frames = 0
        codec.pointee.thread_count = Int32(threads)
        codec.pointee.flags |= revue_codec_flag_global_header()
        codec.pointee.color_range = AVCOL_RANGE_MPEG
        codec.pointee.colorspace = AVCOL_SPC_BT470BG
        codec.pointee.color_primaries = AVCOL_PRI_BT470BG
        codec.pointee.color_trc = AVCOL_TRC_SMPTE170M
        try context.open(options: [
            "preset": OutputPreset.x264Preset,
            "profile": "high",
            "x264-params": OutputPreset.x264Params,
        ])
        parameters = try CodecParameters(from: context)
        try frame.allocateVideo(width: preset.size.width, height: preset.size.height, format: AV_PIX_FMT_YUV420P)
    }

    /// The time base of packet times (1/fps).
    public var timeBase: AVRational { context.pointer.pointee.time_base }

    /// Encodes the next picture of the constant-rate timeline and returns the packets ready.
    public func encode(_ picture: VideoFrame, forceKeyframe: Bool = false) throws(AVError) -> [EncodedPacket] {
        try frame.makeWritable()
        frame.copyPlanes(of: picture)
        frame.pts = nextIndex
        frame.pointer.pointee.pict_type = forceKeyframe || onCadence ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
        nextIndex += 1
        try context.send(frame)
        return try drain()
    }

    /// Whether the next picture starts a GOP of the timeline's cadence.
    private var onCadence: Bool { nextIndex % Int64(preset.gopLength) == 0 }

    /// Encodes the next picture of the constant-rate timeline, drawn in place: `draw` gets the
    /// planes of the encoder's own input frame, which still hold the previous picture (so only
    /// what changed needs drawing, and nothing is copied). Returns the packets ready.
    public func encode(forceKeyframe: Bool = false, drawing draw: (PlanarImage) -> Void) throws(AVError) -> [EncodedPacket] {
        // libavcodec hands libx264 the frame and takes its reference back before send returns
        // (x264 copies its input), so this keeps the same buffer; if it ever could not, the
        // frame would get a copy of its content, and the compositor sees new planes and redraws.
        try frame.makeWritable()
        guard let y = frame.data(0), let u = frame.data(1), let v = frame.data(2) else {
            throw AVError(code: revue_averror(EINVAL), function: "av_frame_get_buffer (no planes)")
        }
        draw(PlanarImage(width: preset.size.width, height: preset.size.height, y: y, u: u, v: v, yStride: frame.lineSize(0),
                         uStride: frame.lineSize(1), vStride: frame.lineSize(2)))
        frame.pts = nextIndex
        frame.pointer.pointee.pict_type = forceKeyframe || onCadence ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
        nextIndex += 1
        try context.send(frame)
        return try drain()
    }

    /// Leaves the timeline's next picture out, when nothing would take it (every job on the
    /// composite paused): its pts goes unused and the GOP's cadence counts on. The picture
    /// encoded after a gap should be a keyframe, since the encoder's reference is from before.
    public func skip() {
        nextIndex += 1
    }

    /// Flushes the encoder at the end of the stream.
    public func finish() throws(AVError) -> [EncodedPacket] {
        try context.send(nil as Frame?)
        return try drain()
    }

    /// Pictures of the timeline so far, encoded or skipped.
    public var framesEncoded: Int64 { nextIndex }

    private func drain() throws(AVError) -> [EncodedPacket] {
        var packets: [EncodedPacket] = []
        while try context.receive(packet) {
            packets.append(EncodedPacket(stream: .video, data: packet.bytes, pts: packet.pts, dts: packet.dts,
                                         duration: max(1, packet.duration), isKeyframe: packet.isKeyframe,
                                         startsGroup: packet.isKeyframe && packet.pts % Int64(preset.gopLength) == 0))
            packet.unref()
        }
        return packets
    }
}
