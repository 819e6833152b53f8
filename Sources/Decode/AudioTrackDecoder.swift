import Ingest
import Media

/// Decodes one Opus track and fills holes: packets the jitter buffer declared lost are made
/// up by the decoder's concealment, so the audio timeline has no gap where a packet went
/// missing. A pause without loss (DTX, a muted sender) is left as a pause; the mixer plays
/// silence there.
public final class AudioTrackDecoder {
    private let decoder: OpusDecoder
    /// The RTP timestamp (48 kHz) just after the last decoded sample.
    private var nextTimestamp: Int64?
    public private(set) var statistics = AudioDecoderStatistics()

    /// Longest hole filled by concealment; a longer one is a pause, not a loss.
    public static let maxConcealment = 48_000

    /// How late libopus's decoded sound is against what went into the encoder: its lookahead
    /// (`OPUS_GET_LOOKAHEAD`: 2.5 ms of the codec's own plus 4 ms of delay compensation, 312
    /// samples at 48 kHz). Browsers, aiortc and ffmpeg all encode with libopus, and RTP does not
    /// signal the delay (Ogg's pre-skip does, RFC 7845 §4.2), so each chunk is placed this much
    /// earlier than its packet's timestamp: the sound lines up with the picture it was captured
    /// with, not 6.5 ms after it.
    public static let encoderLookahead = 312.0 / Double(AudioChunk.sampleRate)

    public init(channels: Int) throws(DecodeError) {
        decoder = try OpusDecoder(channels: max(1, min(2, channels)))
    }

    public var channels: Int { decoder.channels }

    public func decode(_ frame: EncodedFrame) -> [AudioChunk] {
        var chunks: [AudioChunk] = []
        let placed = frame.mediaTime - Self.encoderLookahead
        if frame.lostBefore > 0, let expected = nextTimestamp {
            let gap = Int(frame.rtpTimestamp - expected)
            if gap > 0 && gap <= AudioTrackDecoder.maxConcealment {
                let concealed = decoder.conceal(samples: gap, next: frame.data,
                                                mediaTime: placed - Double(gap) / Double(AudioChunk.sampleRate))
                statistics.samplesConcealed += concealed.frameCount
                chunks.append(concealed)
            }
        }
        do {
            let chunk = try decoder.decode(frame.data, mediaTime: placed)
            statistics.packetsDecoded += 1
            statistics.samplesDecoded += chunk.frameCount
            nextTimestamp = frame.rtpTimestamp + Int64(chunk.frameCount)
            chunks.append(chunk)
        } catch {
            statistics.decodeErrors += 1
            statistics.lastError = error.description
            let concealed = decoder.conceal(samples: decoder.lastPacketSamples, next: nil, mediaTime: placed)
            statistics.samplesConcealed += concealed.frameCount
            nextTimestamp = frame.rtpTimestamp + Int64(concealed.frameCount)
            chunks.append(concealed)
        }
        if let first = chunks.first {
            statistics.firstMediaTime = min(statistics.firstMediaTime ?? first.mediaTime, first.mediaTime)
        }
        if let last = chunks.last {
            statistics.lastMediaTime = max(statistics.lastMediaTime ?? 0, last.mediaTime + last.duration)
        }
        return chunks
    }
}

/// What an audio decoder counted.
public struct AudioDecoderStatistics: Sendable, Equatable {
    public var packetsDecoded = 0
    public var decodeErrors = 0
    public var samplesDecoded = 0
    /// Samples made up for lost packets.
    public var samplesConcealed = 0
    public var firstMediaTime: Double?
    /// The end of the last chunk.
    public var lastMediaTime: Double?
    public var lastError: String?

    public init() {}
}
