import Foundation

/// An utterance as a 16 kHz mono 16-bit WAV file: what the engine was given, for people and for
/// bench/transcription's reference.
public enum UtteranceFile {
    public static func write(_ utterance: Utterance, to path: String) throws {
        var bytes = Data()
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        bytes.append(contentsOf: Array("RIFF".utf8))
        append(UInt32(36 + utterance.samples.count * 2))
        bytes.append(contentsOf: Array("WAVEfmt ".utf8))
        append(UInt32(16))
        append(UInt16(1))
        append(UInt16(1))
        append(UInt32(Utterance.sampleRate))
        append(UInt32(Utterance.sampleRate * 2))
        append(UInt16(2))
        append(UInt16(16))
        bytes.append(contentsOf: Array("data".utf8))
        append(UInt32(utterance.samples.count * 2))
        for sample in utterance.samples { append(Int16(max(-32_768, min(32_767, (sample * 32_768).rounded())))) }
        try bytes.write(to: URL(fileURLWithPath: path))
    }
}
