import COpus

/// Opus with libopus for Revue's own publisher: 48 kHz, 20 ms frames (RFC 7587 §4.2 leaves the
/// duration to the sender; 20 ms is what browsers send), in-band FEC on because the server's SDP
/// asks for it (`useinbandfec=1`). Owns an `OpusEncoder` (opus_encoder_create / opus_encoder_destroy).
// @unchecked Sendable: owns a libopus `OpusEncoder`, used by one thread at a time (the publisher's media thread)
public final class OpusEncoder: @unchecked Sendable {
    public static let sampleRate = 48_000
    /// Samples per channel in one 20 ms frame.
    public static let frameSamples = 960

    public let channels: Int
    /// The target in bits per second (`setBitrate`).
    public private(set) var bitrate: Int
    private let encoder: OpaquePointer
    private var output = [UInt8](repeating: 0, count: 1500)

    /// - Parameters:
    ///   - complexity: 0–10; libopus's default is 10. Lower costs less CPU for a tone or speech.
    public init(channels: Int = 1, bitrate: Int = 32_000, complexity: Int = 5) throws(EncodeError) {
        guard channels == 1 || channels == 2 else { throw EncodeError(codec: "Opus", message: "\(channels) channels (1 or 2)") }
        var error: Int32 = 0
        guard let made = opus_encoder_create(Int32(OpusEncoder.sampleRate), Int32(channels), OPUS_APPLICATION_VOIP, &error), error == OPUS_OK else {
            throw EncodeError(codec: "Opus", message: "opus_encoder_create: \(String(cString: opus_strerror(error)))")
        }
        encoder = made
        self.channels = channels
        self.bitrate = bitrate
        for (name, result) in [("bitrate", revue_opus_encoder_set_bitrate(made, Int32(bitrate))),
                               ("in-band FEC", revue_opus_encoder_set_inband_fec(made, 1)),
                               ("complexity", revue_opus_encoder_set_complexity(made, Int32(complexity)))]
        where result != OPUS_OK {
            opus_encoder_destroy(made)
            throw EncodeError(codec: "Opus", message: "setting the \(name): \(String(cString: opus_strerror(result)))")
        }
    }

    deinit {
        opus_encoder_destroy(encoder)
    }

    /// Changes the target from the next frame on (OPUS_SET_BITRATE; 500 to 512,000 b/s).
    public func setBitrate(_ target: Int) throws(EncodeError) {
        let result = revue_opus_encoder_set_bitrate(encoder, Int32(clamping: target))
        guard result == OPUS_OK else { throw EncodeError(codec: "Opus", message: "setting the bitrate \(target): \(String(cString: opus_strerror(result)))") }
        bitrate = target
    }

    /// Encodes one 20 ms frame of interleaved float samples (opus_encode_float): exactly
    /// `frameSamples × channels` of them.
    public func encode(_ samples: [Float]) throws(EncodeError) -> [UInt8] {
        guard samples.count == OpusEncoder.frameSamples * channels else {
            throw EncodeError(codec: "Opus", message: "\(samples.count) samples for a frame of \(OpusEncoder.frameSamples * channels)")
        }
        let capacity = Int32(output.count)
        let written = samples.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { buffer -> Int32 in
                guard let source = input.baseAddress, let target = buffer.baseAddress else { return OPUS_BAD_ARG }
                return opus_encode_float(encoder, source, Int32(OpusEncoder.frameSamples), target, capacity)
            }
        }
        guard written > 0 else { throw EncodeError(codec: "Opus", message: "opus_encode_float: \(String(cString: opus_strerror(written)))") }
        return Array(output.prefix(Int(written)))
    }
}
