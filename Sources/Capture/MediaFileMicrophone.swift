import Decode

/// A microphone that plays a media file's first audio stream, looped: any file libavformat reads
/// (MP3, AAC in MP4, Opus in WebM, FLAC, wav, …), decoded and resampled to mono 48 kHz once, at
/// open (`Decode`'s `AudioFileReader`). Files for bots and tests are short; one of more than
/// `maximumSeconds` is refused rather than held in memory (ten minutes is 115 MB of samples).
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
        let limit = Self.maximumSeconds * 48_000
        var samples: [Float] = []
        do {
            let reader = try AudioFileReader(path: path, rate: 48_000)
            while let block = try reader.next() {
                samples += block
                guard samples.count <= limit else { throw OpenError(description: "\(path) is longer than \(Self.maximumSeconds) s") }
            }
        } catch let error as OpenError {
            throw error
        } catch {
            throw OpenError(description: "\(error)")
        }
        guard !samples.isEmpty else { throw OpenError(description: "\(path): no sound decodes") }
        mono = samples
    }

    public func samples(from start: Int, count: Int) -> [Float] {
        (start..<(start + count)).map { mono[(($0 % mono.count) + mono.count) % mono.count] }
    }
}
