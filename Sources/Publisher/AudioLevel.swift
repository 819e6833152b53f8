import Foundation

/// The audio level of RFC 6464 §3 (https://www.rfc-editor.org/rfc/rfc6464#section-3): the
/// level of a packet's audio in −dBov, 0 (full scale) to 127 (silence or quieter), for the
/// one-byte header extension `V | level` that the SFU's active-speaker detection reads.
public enum AudioLevel {
    /// −dBov of the RMS of `samples` (full scale is ±1), rounded and clamped to 0…127.
    public static func of(_ samples: [Float]) -> UInt8 {
        guard !samples.isEmpty else { return 127 }
        var sum: Double = 0
        for sample in samples { sum += Double(sample) * Double(sample) }
        let rms = (sum / Double(samples.count)).squareRoot()
        guard rms > 0 else { return 127 }
        // §3: a full-scale sine is −3 dBov; dBov is relative to the RMS of a full-scale square wave.
        let level = -20 * log10(rms)
        return UInt8(max(0, min(127, level.rounded())))
    }
}
