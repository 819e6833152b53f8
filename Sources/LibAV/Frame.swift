import CFFmpeg

/// Owns an `AVFrame` (av_frame_alloc / av_frame_free).
// @unchecked Sendable: owns an AVFrame, used by one thread at a time (that of the decoder or encoder holding it)
public final class Frame: @unchecked Sendable {
    public let pointer: UnsafeMutablePointer<AVFrame>

    public init() {
        guard let frame = av_frame_alloc() else { fatalError("av_frame_alloc: out of memory") }
        pointer = frame
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }

    public var width: Int { Int(pointer.pointee.width) }
    public var height: Int { Int(pointer.pointee.height) }
    public var format: Int32 { pointer.pointee.format }

    public var pts: Int64 {
        get { pointer.pointee.pts }
        set { pointer.pointee.pts = newValue }
    }

    /// The pointer to plane `index` (0…7).
    public func data(_ index: Int) -> UnsafeMutablePointer<UInt8>? {
        withUnsafePointer(to: pointer.pointee.data) { tuple in
            tuple.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { $0[index] }
        }
    }

    /// The line size (stride) of plane `index`.
    public func lineSize(_ index: Int) -> Int {
        withUnsafePointer(to: pointer.pointee.linesize) { tuple in
            tuple.withMemoryRebound(to: Int32.self, capacity: 8) { Int($0[index]) }
        }
    }

    /// Allocates buffers for a video frame (av_frame_get_buffer).
    public func allocateVideo(width: Int, height: Int, format: AVPixelFormat) throws(AVError) {
        av_frame_unref(pointer)
        pointer.pointee.width = Int32(width)
        pointer.pointee.height = Int32(height)
        pointer.pointee.format = format.rawValue
        try check(av_frame_get_buffer(pointer, 0), "av_frame_get_buffer")
    }

    /// Allocates buffers for audio (av_frame_get_buffer).
    public func allocateAudio(samples: Int, channels: Int, format: AVSampleFormat, sampleRate: Int) throws(AVError) {
        av_frame_unref(pointer)
        pointer.pointee.nb_samples = Int32(samples)
        pointer.pointee.format = format.rawValue
        pointer.pointee.sample_rate = Int32(sampleRate)
        revue_channel_layout_set_default(&pointer.pointee.ch_layout, Int32(channels))
        try check(av_frame_get_buffer(pointer, 0), "av_frame_get_buffer")
    }

    /// av_frame_make_writable: gives the frame its own buffers if an encoder still holds them.
    public func makeWritable() throws(AVError) {
        try check(av_frame_make_writable(pointer), "av_frame_make_writable")
    }

    /// av_frame_unref.
    public func unref() { av_frame_unref(pointer) }
}
