import CFFmpeg
import LibAV
import Media

/// H.264 for Revue's own publisher (issue 12): libx264 through libavcodec, set up as a WebRTC
/// sender needs it (docs/PUBLISHING.md says why x264 and not OpenH264).
///
/// - Constrained Baseline (`profile=baseline`: no B-frames, no CABAC; x264 sets
///   constraint_set1, which is what makes it Constrained, ITU-T H.264 §A.2.1), the profile every
///   browser decodes and the one the room server negotiates (`profile-level-id=42e01f`), at the
///   lowest level that holds the size and rate (3.1 for 720p30).
/// - `tune=zerolatency`: no lookahead, no frame threads, so a picture is out of `encode` as soon
///   as it is in; one thread, as the recorder's x264 (docs/ENCODING.md).
/// - Parameter sets in band: no global header, so x264 writes the SPS and PPS in front of every
///   IDR picture and a receiver that starts at any keyframe can decode it (the packetizer sends
///   them in one STAP-A).
/// - CBR-like rate control: ABR at the target with a VBV of one second at the same rate, so a
///   picture cannot burst far above it; the target can change between pictures (`setBitrate`:
///   libavcodec's libx264 wrapper compares the context's rates before each picture and calls
///   x264_encoder_reconfig when they changed).
/// - A keyframe every `keyframeInterval` pictures, none on scene cuts, and an IDR picture when
///   asked (`forced-idr`: a forced picture is IDR, not a recovery-point I picture, since a new
///   subscriber needs an IDR to start).
// @unchecked Sendable: owns an AVCodecContext (libx264), used by one thread at a time (the publisher's media thread)
public final class H264Encoder: RealTimeVideoEncoder, @unchecked Sendable {
    public struct Settings: Sendable, Equatable {
        public var width: Int
        public var height: Int
        public var framesPerSecond: Int
        /// Bits per second.
        public var bitrate: Int
        /// Pictures between periodic IDR pictures.
        public var keyframeInterval: Int
        /// x264's speed preset; `veryfast` is the recorder's, `ultrafast` trades quality for CPU.
        public var preset: String
        public var threads: Int

        public init(width: Int, height: Int, framesPerSecond: Int = 30, bitrate: Int, keyframeInterval: Int = 300,
                    preset: String = "veryfast", threads: Int = 1)
        {
            self.width = width
            self.height = height
            self.framesPerSecond = framesPerSecond
            self.bitrate = bitrate
            self.keyframeInterval = keyframeInterval
            self.preset = preset
            self.threads = threads
        }

        /// The lowest level (Table A-1: frame size and macroblock rate) that holds the size at
        /// the rate: 3.1 for 720p30, 4 for 1080p30.
        var level: String {
            let macroblocks = ((width + 15) / 16) * ((height + 15) / 16)
            let perSecond = macroblocks * framesPerSecond
            let levels: [(name: String, frame: Int, rate: Int)] = [
                ("3", 1_620, 40_500), ("3.1", 3_600, 108_000), ("3.2", 5_120, 216_000), ("4", 8_192, 245_760), ("4.2", 8_704, 522_240),
                ("5.1", 36_864, 983_040),
            ]
            return levels.first { macroblocks <= $0.frame && perSecond <= $0.rate }?.name ?? "5.1"
        }

        /// The x264 options (libavcodec's AVOptions for libx264), in one place so the benchmark's
        /// ffmpeg reference runs with the same.
        public var x264Options: [String: String] {
            ["preset": preset, "tune": "zerolatency", "profile": "baseline", "level": level, "forced-idr": "1",
             "x264-params": "scenecut=0:open-gop=0"]
        }
    }

    public let settings: Settings
    public var encodingName: String { "H264" }
    public private(set) var bitrate: Int
    public private(set) var framesEncoded = 0
    public private(set) var keyframesEncoded = 0
    private let context: CodecContext
    private let frame = Frame()
    private let packet = Packet()
    private var nextIndex: Int64 = 0

    public init(settings: Settings) throws(EncodeError) {
        guard settings.width > 0, settings.height > 0, settings.width % 2 == 0, settings.height % 2 == 0, settings.framesPerSecond > 0,
              settings.bitrate >= 10_000, settings.keyframeInterval > 0
        else { throw EncodeError(codec: "H.264", message: "unusable settings \(settings)") }
        self.settings = settings
        bitrate = settings.bitrate
        do {
            context = try CodecContext(encoderNamed: "libx264")
            let codec = context.pointer
            codec.pointee.width = Int32(settings.width)
            codec.pointee.height = Int32(settings.height)
            codec.pointee.pix_fmt = AV_PIX_FMT_YUV420P
            codec.pointee.time_base = AVRational(num: 1, den: Int32(settings.framesPerSecond))
            codec.pointee.framerate = AVRational(num: Int32(settings.framesPerSecond), den: 1)
            codec.pointee.gop_size = Int32(settings.keyframeInterval)
            codec.pointee.max_b_frames = 0
            codec.pointee.thread_count = Int32(max(1, settings.threads))
            codec.pointee.color_range = AVCOL_RANGE_MPEG
            codec.pointee.colorspace = AVCOL_SPC_BT470BG
            codec.pointee.color_primaries = AVCOL_PRI_BT470BG
            codec.pointee.color_trc = AVCOL_TRC_SMPTE170M
            H264Encoder.apply(settings.bitrate, to: codec)
            try context.open(options: settings.x264Options)
            try frame.allocateVideo(width: settings.width, height: settings.height, format: AV_PIX_FMT_YUV420P)
        } catch {
            throw EncodeError(codec: "H.264", message: "\(error)")
        }
    }

    /// The rate, the VBV's maximum rate and its one-second buffer.
    private static func apply(_ bitrate: Int, to codec: UnsafeMutablePointer<AVCodecContext>) {
        codec.pointee.bit_rate = Int64(bitrate)
        codec.pointee.rc_max_rate = Int64(bitrate)
        codec.pointee.rc_buffer_size = Int32(clamping: bitrate)
    }

    /// Encodes the next picture (avcodec_send_frame + avcodec_receive_packet): one access unit in
    /// Annex B, SPS and PPS in front when it is an IDR picture.
    public func encode(_ picture: VideoFrame, forceKeyframe: Bool = false) throws(EncodeError) -> EncodedVideoFrame? {
        guard picture.width == settings.width, picture.height == settings.height else {
            throw EncodeError(codec: "H.264", message: "a \(picture.width)x\(picture.height) picture for a \(settings.width)x\(settings.height) encoder")
        }
        do {
            try frame.makeWritable()
            frame.copyPlanes(of: picture)
            frame.pts = nextIndex
            nextIndex += 1
            frame.pointer.pointee.pict_type = forceKeyframe ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
            try context.send(frame)
            var encoded: EncodedVideoFrame?
            // zerolatency gives one packet per picture; more would be one access unit's parts.
            while try context.receive(packet) {
                let bytes = packet.bytes
                if var existing = encoded {
                    existing.data += bytes
                    existing.isKeyframe = existing.isKeyframe || packet.isKeyframe
                    encoded = existing
                } else {
                    encoded = EncodedVideoFrame(data: bytes, isKeyframe: packet.isKeyframe)
                }
                packet.unref()
            }
            if let encoded {
                framesEncoded += 1
                if encoded.isKeyframe { keyframesEncoded += 1 }
            }
            return encoded
        } catch {
            throw EncodeError(codec: "H.264", message: "\(error)")
        }
    }

    /// Changes the target from the next picture on (libx264 reconfigures itself when it sees the
    /// context's rates change), with no IDR picture.
    public func setBitrate(_ bitsPerSecond: Int) throws(EncodeError) {
        guard bitsPerSecond >= 10_000 else { throw EncodeError(codec: "H.264", message: "a bitrate of \(bitsPerSecond) b/s") }
        H264Encoder.apply(bitsPerSecond, to: context.pointer)
        bitrate = bitsPerSecond
    }
}
