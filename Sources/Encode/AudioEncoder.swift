import CFFmpeg
import LibAV

/// AAC-LC with libavcodec's own encoder: 48 kHz stereo, planar float, 1024 samples a frame.
// @unchecked Sendable: owns an AVCodecContext (libavcodec AAC), used by one thread at a time (the recording pipeline's)
public final class AudioEncoder: @unchecked Sendable {
    public let parameters: CodecParameters
    private let context: CodecContext
    private let frame = Frame()
    private let packet = Packet()
    private var nextSample: Int64 = 0
    /// Samples per channel each `encode` call takes.
    public let frameSize: Int
    /// The encoder's delay (AAC priming, 1024): its first packet's pts is the first frame's pts
    /// minus this. Starting the input at this pts keeps every packet time non-negative, which
    /// fragmented MP4 and FLV need to keep audio and video in step.
    public let primingSamples: Int

    public init(bitrate: Int = 128_000) throws(AVError) {
        context = try CodecContext(encoderNamed: "aac")
        let codec = context.pointer
        codec.pointee.sample_rate = Int32(OutputPreset.audioSampleRate)
        codec.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        revue_channel_layout_set_default(&codec.pointee.ch_layout, Int32(OutputPreset.audioChannels))
        codec.pointee.bit_rate = Int64(bitrate)
        codec.pointee.time_base = AVRational(num: 1, den: Int32(OutputPreset.audioSampleRate))
        codec.pointee.profile = FF_PROFILE_AAC_LOW
        codec.pointee.flags |= revue_codec_flag_global_header()
        try context.open()
        frameSize = Int(codec.pointee.frame_size > 0 ? codec.pointee.frame_size : 1024)
        primingSamples = Int(codec.pointee.initial_padding)
        parameters = try CodecParameters(from: context)
    }

    public var timeBase: AVRational { context.pointer.pointee.time_base }

    /// Encodes `frameSize` samples of interleaved stereo (fewer only for the last call).
    /// `startSample` is the input pts of the first call (later calls follow on).
    public func encode(interleaved samples: [Float], startSample: Int64? = nil) throws(AVError) -> [EncodedPacket] {
        if let startSample, nextSample == 0 { nextSample = startSample }
        let frames = samples.count / 2
        guard frames > 0 else { return [] }
        try frame.allocateAudio(samples: frames, channels: 2, format: AV_SAMPLE_FMT_FLTP, sampleRate: OutputPreset.audioSampleRate)
        samples.withUnsafeBufferPointer { source in
            guard let left = frame.data(0), let right = frame.data(1) else { return }
            left.withMemoryRebound(to: Float.self, capacity: frames) { l in
                right.withMemoryRebound(to: Float.self, capacity: frames) { r in
                    for index in 0..<frames {
                        l[index] = source[index * 2]
                        r[index] = source[index * 2 + 1]
                    }
                }
            }
        }
        frame.pts = nextSample
        nextSample += Int64(frames)
        try context.send(frame)
        return try drain()
    }

    public func finish() throws(AVError) -> [EncodedPacket] {
        try context.send(nil as Frame?)
        return try drain()
    }

    private func drain() throws(AVError) -> [EncodedPacket] {
        var packets: [EncodedPacket] = []
        while try context.receive(packet) {
            packets.append(EncodedPacket(stream: .audio, data: packet.bytes, pts: packet.pts, dts: packet.dts,
                                         duration: max(1, packet.duration), isKeyframe: true))
            packet.unref()
        }
        return packets
    }
}
