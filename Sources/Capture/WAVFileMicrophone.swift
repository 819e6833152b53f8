import Foundation

/// A microphone that plays a WAV file, looped: 48 kHz, 16-bit PCM or 32-bit float, mono or
/// stereo (mixed to mono, or kept as it is with `stereo`). The whole file is read at start; a
/// clip for a test is short.
///
/// RIFF/WAVE (http://soundfile.sapp.org/doc/WaveFormat/): a `fmt ` chunk (format 1 PCM or 3
/// float, channels, rate, bits), then a `data` chunk; other chunks are skipped.
public final class WAVFileMicrophone: MicrophoneSource, Sendable {
    public let path: String
    /// The file's sound, mono.
    public let mono: [Float]
    /// A stereo file's sound, interleaved, when it was opened `stereo`.
    public let interleaved: [Float]?
    public var channels: Int { interleaved == nil ? 1 : 2 }

    /// `stereo`: a stereo file is played as stereo (a mono one stays mono).
    public init(path: String, stereo: Bool = false) throws {
        self.path = path
        guard let data = FileManager.default.contents(atPath: path) else { throw MediaFileError("cannot read \(path)") }
        let bytes = [UInt8](data)
        func u16(_ at: Int) -> Int { at + 2 <= bytes.count ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : 0 }
        func u32(_ at: Int) -> Int { at + 4 <= bytes.count ? u16(at) | u16(at + 2) << 16 : 0 }
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WAVE".utf8) else {
            throw MediaFileError("\(path): not a RIFF WAVE file")
        }
        var format = 0, channels = 0, rate = 0, bits = 0
        var samples: [Float]?
        var both: [Float]?
        var offset = 12
        while offset + 8 <= bytes.count, samples == nil {
            let size = u32(offset + 4)
            let body = offset + 8
            let end = min(bytes.count, body + size)
            switch String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self) {
            case "fmt ":
                format = u16(body)
                channels = u16(body + 2)
                rate = u32(body + 4)
                bits = u16(body + 14)
                // WAVE_FORMAT_EXTENSIBLE: the real format is the sub-format GUID's first two bytes.
                if format == 0xFFFE { format = u16(body + 24) }
            case "data":
                guard rate == 48_000, channels == 1 || channels == 2, (format == 1 && bits == 16) || (format == 3 && bits == 32) else {
                    throw MediaFileError("\(path): format \(format), \(bits) bits, \(channels) channels at \(rate) Hz; "
                        + "48 kHz 16-bit PCM or 32-bit float, mono or stereo, is read")
                }
                let width = bits / 8 * channels
                let frames = (end - body) / width
                var read = [Float](repeating: 0, count: frames)
                var kept = [Float]()
                if stereo && channels == 2 { kept.reserveCapacity(frames * 2) }
                for frame in 0..<frames {
                    var sum: Float = 0
                    for channel in 0..<channels {
                        let at = body + frame * width + channel * bits / 8
                        let value = format == 1 ? Float(Int16(bitPattern: UInt16(u16(at)))) / 32_768 : Float(bitPattern: UInt32(u32(at)))
                        sum += value
                        if stereo && channels == 2 { kept.append(value) }
                    }
                    read[frame] = sum / Float(channels)
                }
                samples = read
                if stereo && channels == 2 { both = kept }
            default:
                break
            }
            offset = body + size + (size & 1)
        }
        guard let samples, !samples.isEmpty else { throw MediaFileError("\(path): no sound (no data chunk after fmt)") }
        mono = samples
        interleaved = both
    }

    public func samples(from start: Int, count: Int) -> [Float] {
        guard let interleaved else { return (start..<(start + count)).map { mono[(($0 % mono.count) + mono.count) % mono.count] } }
        var out = [Float]()
        out.reserveCapacity(count * 2)
        for frame in start..<(start + count) {
            let at = ((frame % mono.count) + mono.count) % mono.count
            out.append(interleaved[2 * at])
            out.append(interleaved[2 * at + 1])
        }
        return out
    }
}
