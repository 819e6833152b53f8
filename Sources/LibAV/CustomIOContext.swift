import CFFmpeg

/// Owns an `AVIOContext` whose bytes come to Swift instead of a file (avio_alloc_context /
/// avio_context_free): a muxer writes into it, and the owner decides when and where the bytes
/// go. Not seekable, which is what fragmented MP4 and FLV need.
// @unchecked Sendable: owns an AVIOContext and its `pending` bytes, used by one thread at a time (its muxer's)
public final class CustomIOContext: @unchecked Sendable {
    public private(set) var pointer: UnsafeMutablePointer<AVIOContext>?
    /// Bytes written by the muxer and not yet taken.
    private var pending: [UInt8] = []

    public init(bufferSize: Int = 64 * 1024) throws(AVError) {
        guard let buffer = av_malloc(bufferSize)?.assumingMemoryBound(to: UInt8.self) else {
            throw AVError(code: revue_averror(ENOMEM), function: "av_malloc")
        }
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        guard let context = avio_alloc_context(buffer, Int32(bufferSize), 1, opaque, nil, { opaque, data, size in
            guard let opaque, let data, size > 0 else { return size < 0 ? -1 : 0 }
            let owner = Unmanaged<CustomIOContext>.fromOpaque(opaque).takeUnretainedValue()
            owner.pending.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(size)))
            return size
        }, nil) else {
            av_free(buffer)
            throw AVError(code: revue_averror(ENOMEM), function: "avio_alloc_context")
        }
        context.pointee.seekable = 0
        pointer = context
    }

    deinit {
        if let buffer = pointer?.pointee.buffer { av_free(buffer) }
        avio_context_free(&pointer)
    }

    /// Pushes the muxer's buffered bytes through (avio_flush) and returns everything written
    /// since the last call.
    public func take() -> [UInt8] {
        if let pointer { avio_flush(pointer) }
        defer { pending.removeAll(keepingCapacity: true) }
        return pending
    }
}
