import CFFmpeg
import LibAV

/// A microphone that plays a media file's first audio stream, looped: any file libavformat reads
/// (MP3, AAC in MP4, Opus in WebM, FLAC, wav, …), decoded and resampled to mono 48 kHz once, at
/// open. Files for bots and tests are short; one of more than `maximumSeconds` is refused
/// rather than held in memory (ten minutes is 115 MB of samples).
public final class MediaFileMicrophone: MicrophoneSource, Sendable {
    /// Why a file cannot be a microphone.
    public struct OpenError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    public static let maximumSeconds = 600
    public let path: String
    /// The whole file, mono 48 kHz.
    public let mono: [Float]

    public init(path: String) throws(OpenError) {
        self.path = path
        let input: InputFormatContext
        do {
            input = try InputFormatContext(url: path)
        } catch {
            throw OpenError(description: "cannot read \(path): \(error)")
        }
        guard let index = (0..<input.streamCount).first(where: { input.stream($0)?.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO }),
              let parameters = input.stream(index)?.pointee.codecpar
        else {
            throw OpenError(description: "\(path) has no audio stream")
        }
        let decoder: CodecContext
        do {
            decoder = try CodecContext(decoder: parameters.pointee.codec_id)
            guard avcodec_parameters_to_context(decoder.pointer, parameters) >= 0 else { throw OpenError(description: "\(path): bad audio parameters") }
            try decoder.open()
        } catch let error as OpenError {
            throw error
        } catch {
            throw OpenError(description: "\(path): no decoder for its audio: \(error)")
        }
        var made = revue_swr_to_mono_48k(decoder.pointer)
        defer { swr_free(&made) }
        guard let resampler = made else {
            throw OpenError(description: "\(path): its audio cannot be resampled to mono 48 kHz")
        }
        let limit = Self.maximumSeconds * 48_000
        var samples: [Float] = []
        let packet = Packet(), frame = Frame()
        func take(_ decoded: Frame?) throws(OpenError) {
            let capacity = Int(swr_get_out_samples(resampler, Int32(decoded?.pointer.pointee.nb_samples ?? 0))) + 256
            var chunk = [Float](repeating: 0, count: capacity)
            let written = chunk.withUnsafeMutableBufferPointer { buffer in
                revue_swr_convert_mono(resampler, buffer.baseAddress, Int32(capacity), decoded.map { UnsafePointer($0.pointer) })
            }
            guard written >= 0 else { throw OpenError(description: "\(path): resampling failed (\(written))") }
            samples += chunk.prefix(Int(written))
            guard samples.count <= limit else { throw OpenError(description: "\(path) is longer than \(Self.maximumSeconds) s") }
        }
        do {
            var ended = false
            while true {
                if try decoder.receive(frame) {
                    try take(frame)
                    continue
                }
                if ended { break }
                if try input.read(into: packet) {
                    defer { av_packet_unref(packet.pointer) }
                    if packet.streamIndex == Int32(index) { try decoder.send(packet) }
                } else {
                    try decoder.send(Optional<Packet>.none)
                    ended = true
                }
            }
            try take(nil)
        } catch let error as OpenError {
            throw error
        } catch {
            throw OpenError(description: "\(path): its audio did not decode: \(error)")
        }
        guard !samples.isEmpty else { throw OpenError(description: "\(path): no sound decodes") }
        mono = samples
    }

    public func samples(from start: Int, count: Int) -> [Float] {
        (start..<(start + count)).map { mono[(($0 % mono.count) + mono.count) % mono.count] }
    }
}
