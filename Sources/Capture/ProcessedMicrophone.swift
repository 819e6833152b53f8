import Foundation

/// A microphone with WebRTC's audio processing applied (`AudioProcessor`): noise suppression,
/// echo cancellation against a far-end source, gain control, high-pass, on 10 ms frames.
///
/// A `MicrophoneSource` is read by position; processing is not (the module's estimates carry
/// from one frame to the next). So this processes the source in order, 10 ms at a time, from
/// frame boundaries, and keeps the last second it made: a publisher reading 20 ms after 20 ms
/// gets each frame processed once, a re-read of recent samples gets the same samples, and a
/// publisher that skipped ahead (it fell behind real time) carries on from the new position as
/// a microphone does after a gap.
///
/// The far-end source, when given, is what the loudspeaker played: its frame at the same
/// position is analysed before each microphone frame, and `echoDelayMilliseconds` says how much
/// later its echo reaches the microphone (the canceller also estimates it).
// @unchecked Sendable: mutable state (kept samples, positions, counts) and every `processor` call guarded by `lock`
public final class ProcessedMicrophone: MicrophoneSource, @unchecked Sendable {
    public let source: any MicrophoneSource
    public let farEnd: (any MicrophoneSource)?
    public let echoDelayMilliseconds: Int
    private let processor: AudioProcessor
    private let lock = NSLock()
    /// Processed samples from `keptStart` up to `next`, the position of the next frame to process.
    private var kept: [Float] = []
    private var keptStart = 0
    private var next = 0
    private var processed = 0
    private var failed = 0
    /// One second at 48 kHz: more than any re-read a publisher makes.
    private let keep = 48_000

    public init(source: any MicrophoneSource, settings: AudioProcessor.Settings, farEnd: (any MicrophoneSource)? = nil,
                echoDelayMilliseconds: Int = 0) throws(AudioProcessingError)
    {
        self.source = source
        self.farEnd = farEnd
        self.echoDelayMilliseconds = echoDelayMilliseconds
        processor = try AudioProcessor(settings: settings)
    }

    public var settings: AudioProcessor.Settings { processor.settings }

    /// Frames processed so far, and frames the module refused (sent unprocessed).
    public var counts: (processed: Int, failed: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (processed, failed)
    }

    public func samples(from start: Int, count: Int) -> [Float] {
        guard count > 0, start >= 0 else { return [] }
        lock.lock()
        defer { lock.unlock() }
        let frame = processor.frameSamples
        if start < keptStart || start > next {
            // Older than what is kept, or after a gap: start again at the frame holding `start`.
            next = start - start % frame
            keptStart = next
            kept.removeAll(keepingCapacity: true)
        }
        while next < start + count {
            // The processing runs on mono: a stereo source is averaged down first.
            var samples = source.samples(from: next, count: frame, channels: 1)
            if samples.count < frame { samples += [Float](repeating: 0, count: frame - samples.count) }
            do {
                if let farEnd {
                    var played = farEnd.samples(from: next, count: frame, channels: 1)
                    if played.count < frame { played += [Float](repeating: 0, count: frame - played.count) }
                    try processor.analyzeFarEnd(played)
                }
                try processor.process(&samples, echoDelayMilliseconds: echoDelayMilliseconds)
                processed += 1
            } catch {
                // The frame goes out as it came: a sound unprocessed beats a gap.
                failed += 1
            }
            kept += samples
            next += frame
        }
        if kept.count > keep + frame {
            let drop = (kept.count - keep) / frame * frame
            kept.removeFirst(drop)
            keptStart += drop
        }
        let offset = start - keptStart
        return Array(kept[offset..<(offset + count)])
    }
}
