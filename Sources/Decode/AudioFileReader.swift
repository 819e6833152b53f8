import CFFmpeg
import LibAV

/// Reads a media file's first audio stream as mono float at a chosen rate, a block at a time:
/// a file Revue's FFmpeg reads (MP4, WebM, Ogg, WAV, MP3, FLAC, an HLS playlist: README.md), however long,
/// in bounded memory. The speech engines read files through this at 16 kHz.
///
/// With `followingTimestamps`, a stretch of time the file has no packets for (a per-participant
/// track's sender muted, or sending nothing while silent) is read as silence, as is the time
/// before its first packet: a sample's place among the blocks is its time in the file, so what
/// is heard after a gap is placed where it was said. Otherwise the samples follow one another
/// as decoded.
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
    public let followingTimestamps: Bool
    private let timeBase: AVRational
    /// Samples handed out so far (at `rate`), silence included.
    private var handedOut = 0
    /// Silence still owed before `held` (a gap the timestamps showed), and the samples after it.
    private var silenceOwed = 0
    private var held: [Float]?
    /// The shortest gap read as silence: the resampler's delay and timestamp rounding stay
    /// under it.
    private var shortestGap: Int { rate / 50 }

    /// Owns the SwrContext.
    private final class Resampler {
        var pointer: OpaquePointer?
        init(_ pointer: OpaquePointer) { self.pointer = pointer }
        deinit { swr_free(&pointer) }
    }

    public init(path: String, rate: Int, followingTimestamps: Bool = false) throws(ReadError) {
        self.path = path
        self.rate = rate
        self.followingTimestamps = followingTimestamps
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
        timeBase = input.stream(index)?.pointee.time_base ?? AVRational(num: 1, den: Int32(rate))
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

    /// The next block of samples (about one decoded frame's worth, or up to a second of a gap's
    /// silence), or nil at the end.
    public func next() throws(ReadError) -> [Float]? {
        if silenceOwed > 0 {
            let count = min(silenceOwed, rate)
            silenceOwed -= count
            return handOut([Float](repeating: 0, count: count))
        }
        if let block = held {
            held = nil
            return handOut(block)
        }
        while !drained {
            do {
                if try decoder.receive(frame) {
                    let gap = followingTimestamps ? silence(before: frame) : 0
                    let block = try convert(frame)
                    guard gap > 0 else { return handOut(block) }
                    silenceOwed = gap
                    held = block
                    return try next()
                }
                if inputEnded {
                    drained = true
                    let rest = try convert(nil)
                    return rest.isEmpty ? nil : handOut(rest)
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

    private func handOut(_ block: [Float]) -> [Float] {
        handedOut += block.count
        return block
    }

    /// How many samples of silence stand before `decoded`: the time between where the samples
    /// handed out end and where its timestamp puts it, when that is a gap worth reading (never
    /// past the file's length, so a damaged timestamp cannot make hours of it).
    private func silence(before decoded: Frame) -> Int {
        let timestamp = decoded.pointer.pointee.best_effort_timestamp
        guard timestamp != Int64.min, timeBase.den > 0 else { return 0 }
        let seconds = Double(timestamp) * Double(timeBase.num) / Double(timeBase.den)
        guard seconds.isFinite, seconds > 0 else { return 0 }
        let limit = duration.map { $0 * Double(rate) } ?? Double(rate) * 3600 * 24
        let wanted = Int(min(seconds * Double(rate), limit)) - handedOut
        return wanted >= shortestGap ? wanted : 0
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
