import CFFmpeg
import LibAV

/// Reads a media file's first audio stream as mono float at a chosen rate, a block at a time:
/// a file Revue's FFmpeg reads (MP4, WebM, Ogg, WAV, MP3, FLAC, an HLS playlist: README.md), however long,
/// in bounded memory. The speech engines read files through this at 16 kHz.
public final class AudioFileReader {
    /// Why a file's sound cannot be read.
    public struct ReadError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    public let path: String
    public let rate: Int
    /// The file's length in seconds, when its container says.
    public let duration: Double?
    private let input: InputFormatContext
    private let decoder: CodecContext
    private let streamIndex: Int32
    private let resampler: Resampler
    private let packet = Packet(), frame = Frame()
    private var inputEnded = false
    private var drained = false

    /// Owns the SwrContext.
    private final class Resampler {
        var pointer: OpaquePointer?
        init(_ pointer: OpaquePointer) { self.pointer = pointer }
        deinit { swr_free(&pointer) }
    }

    public init(path: String, rate: Int) throws(ReadError) {
        self.path = path
        self.rate = rate
        let input: InputFormatContext
        do {
            input = try InputFormatContext(url: path)
        } catch {
            throw ReadError(description: "cannot read \(path): \(error)")
        }
        self.input = input
        guard let index = (0..<input.streamCount).first(where: { input.stream($0)?.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO }),
              let parameters = input.stream(index)?.pointee.codecpar
        else { throw ReadError(description: "\(path) has no audio stream") }
        streamIndex = Int32(index)
        let decoder: CodecContext
        do {
            decoder = try CodecContext(decoder: parameters.pointee.codec_id)
            guard avcodec_parameters_to_context(decoder.pointer, parameters) >= 0 else { throw ReadError(description: "\(path): bad audio parameters") }
            try decoder.open()
        } catch let error as ReadError {
            throw error
        } catch {
            throw ReadError(description: "\(path): no decoder for its audio: \(error)")
        }
        guard let made = revue_swr_to_mono(decoder.pointer, Int32(rate)) else {
            throw ReadError(description: "\(path): its audio cannot be resampled to mono \(rate) Hz")
        }
        self.decoder = decoder
        resampler = Resampler(made)
        duration = input.duration
    }

    /// The next block of samples (about one decoded frame's worth), or nil at the end.
    public func next() throws(ReadError) -> [Float]? {
        while !drained {
            do {
                if try decoder.receive(frame) { return try convert(frame) }
                if inputEnded {
                    drained = true
                    let rest = try convert(nil)
                    return rest.isEmpty ? nil : rest
                }
                if try input.read(into: packet) {
                    defer { av_packet_unref(packet.pointer) }
                    // A damaged packet is skipped, not fatal: the rest of the file still reads.
                    if packet.streamIndex == streamIndex { try? decoder.send(packet) }
                } else {
                    try decoder.send(Optional<Packet>.none)
                    inputEnded = true
                }
            } catch let error as ReadError {
                throw error
            } catch {
                throw ReadError(description: "\(path): its audio did not decode: \(error)")
            }
        }
        return nil
    }

    private func convert(_ decoded: Frame?) throws(ReadError) -> [Float] {
        let capacity = Int(swr_get_out_samples(resampler.pointer, Int32(decoded?.pointer.pointee.nb_samples ?? 0))) + 256
        var block = [Float](repeating: 0, count: capacity)
        let written = block.withUnsafeMutableBufferPointer { buffer in
            revue_swr_convert_mono(resampler.pointer, buffer.baseAddress, Int32(capacity), decoded.map { UnsafePointer($0.pointer) })
        }
        guard written >= 0 else { throw ReadError(description: "\(path): resampling failed (\(written))") }
        return Array(block.prefix(Int(written)))
    }
}
