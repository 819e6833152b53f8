import COpus
import Media

/// Decodes Opus with libopus to 48 kHz float, and makes up audio for lost packets with the
/// decoder's own concealment (PLC) or the next packet's in-band FEC.
// @unchecked Sendable: owns a libopus `OpusDecoder` (opus_decoder_create), used by one thread at a time (its track decoder's)
public final class OpusDecoder: @unchecked Sendable {
    private let decoder: OpaquePointer
    public let channels: Int
    /// Samples per channel of the last packet, which concealment repeats.
    public private(set) var lastPacketSamples = 960
    private var output: [Float]

    /// At most 120 ms per call (RFC 6716 §3.2.5).
    static let maxSamples = 5760

    public init(channels: Int = 2) throws(DecodeError) {
        var error: Int32 = 0
        guard let made = opus_decoder_create(48_000, Int32(channels), &error), error == OPUS_OK else {
            throw DecodeError(codec: "Opus", message: "opus_decoder_create: \(String(cString: opus_strerror(error)))")
        }
        decoder = made
        self.channels = channels
        output = [Float](repeating: 0, count: OpusDecoder.maxSamples * channels)
    }

    deinit {
        opus_decoder_destroy(decoder)
    }

    /// Decodes one packet (opus_decode_float).
    public func decode(_ packet: [UInt8], mediaTime: Double) throws(DecodeError) -> AudioChunk {
        let samples = try run(packet, samples: OpusDecoder.maxSamples, fec: false)
        lastPacketSamples = samples
        return AudioChunk(samples: Array(output.prefix(samples * channels)), channels: channels, mediaTime: mediaTime)
    }

    /// Makes up `samples` per channel for lost packets: from `next`'s forward error correction
    /// for the last packet's worth when it is given, and by packet loss concealment otherwise.
    public func conceal(samples: Int, next: [UInt8]?, mediaTime: Double) -> AudioChunk {
        var made: [Float] = []
        made.reserveCapacity(samples * channels)
        var remaining = samples
        let fecSamples = next != nil && samples >= lastPacketSamples ? lastPacketSamples : 0
        // PLC in steps the decoder accepts (multiples of 2.5 ms, at most 120 ms).
        while remaining > fecSamples {
            let step = min(remaining - fecSamples, OpusDecoder.maxSamples) / 120 * 120
            guard step > 0 else { break }
            let produced = (try? run(nil, samples: step, fec: false)) ?? 0
            made += output.prefix(produced * channels)
            if produced == 0 { made += [Float](repeating: 0, count: step * channels) }
            remaining -= step
        }
        if fecSamples > 0, let next, let produced = try? run(next, samples: fecSamples, fec: true) {
            made += output.prefix(produced * channels)
            remaining -= produced
        }
        if remaining > 0 { made += [Float](repeating: 0, count: remaining * channels) }
        return AudioChunk(samples: made, channels: channels, mediaTime: mediaTime, isConcealed: true)
    }

    private func run(_ packet: [UInt8]?, samples: Int, fec: Bool) throws(DecodeError) -> Int {
        let produced: Int32 = output.withUnsafeMutableBufferPointer { out in
            guard let destination = out.baseAddress else { return OPUS_BUFFER_TOO_SMALL }
            if let packet {
                return packet.withUnsafeBufferPointer { input in
                    opus_decode_float(decoder, input.baseAddress, Int32(input.count), destination, Int32(samples), fec ? 1 : 0)
                }
            }
            return opus_decode_float(decoder, nil, 0, destination, Int32(samples), 0)
        }
        guard produced >= 0 else {
            throw DecodeError(codec: "Opus", message: String(cString: opus_strerror(produced)))
        }
        return Int(produced)
    }
}
