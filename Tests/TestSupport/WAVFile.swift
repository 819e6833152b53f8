import Foundation

/// WAV files for tests that play sound into a microphone: interleaved samples (±1) as 16-bit
/// PCM or 32-bit float, any channel count and rate (RIFF WAVE: a `fmt ` chunk, then `data`).
public enum WAVFile {
    public static func write(_ samples: [Float], channels: Int, sampleRate: Int = 48_000, float: Bool, to path: String) throws {
        let width = float ? 4 : 2
        var bytes = [UInt8]()
        func append32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        func append16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        bytes += Array("RIFF".utf8)
        append32(UInt32(36 + samples.count * width))
        bytes += Array("WAVEfmt ".utf8)
        append32(16)
        append16(float ? 3 : 1)
        append16(UInt16(channels))
        append32(UInt32(sampleRate))
        append32(UInt32(sampleRate * channels * width))
        append16(UInt16(channels * width))
        append16(UInt16(width * 8))
        bytes += Array("data".utf8)
        append32(UInt32(samples.count * width))
        for sample in samples {
            if float {
                append32(sample.bitPattern)
            } else {
                append16(UInt16(bitPattern: Int16(max(-32_768, min(32_767, (sample * 32_768).rounded())))))
            }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}
