import Decode
import Synchronization

/// A microphone that plays a media file's first audio stream, looped: a file Revue's FFmpeg reads
/// (MP3, AAC in MP4, Opus in WebM, FLAC, wav, …), resampled to mono 48 kHz (`Decode`'s
/// `AudioFileReader`). It is decoded as it is played, a block or two ahead of the publisher, so a
/// file of any length opens at once and costs the memory of a few blocks; at its end it starts
/// again. Opening reads the first block, so a file with no sound is refused there.
public final class MediaFileMicrophone: MicrophoneSource, Sendable {
    /// Why a file cannot be a microphone.
    public struct OpenError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Where playing is: the reader of the pass under way and what it has decoded and not played.
    private struct Playback {
        var reader: AudioFileReader
        /// Samples decoded and not played yet, the first of them at `bufferStart` (counted from
        /// the first sample of the first pass).
        var buffer: [Float] = []
        var bufferStart = 0
        /// Where the pass under way began.
        var passStart = 0
        /// Samples in one pass, once a pass has ended.
        var length: Int?
    }

    public let path: String
    private let playback: Mutex<Playback>

    public init(path: String) throws(OpenError) {
        self.path = path
        do {
            let reader = try AudioFileReader(path: path, rate: 48_000)
            var first: [Float] = []
            while first.isEmpty, let block = try reader.next() { first = block }
            guard !first.isEmpty else { throw OpenError(description: "\(path): no sound decodes") }
            playback = Mutex(Playback(reader: reader, buffer: first))
        } catch let error as OpenError {
            throw error
        } catch {
            throw OpenError(description: "\(error)")
        }
    }

    /// Samples in one pass of the file, once it has been played to its end (nil before).
    public var loopLength: Int? { playback.withLock { $0.length } }

    public func samples(from start: Int, count: Int) -> [Float] {
        guard count > 0 else { return [] }
        return playback.withLock { playback in
            let start = max(0, start)
            // Asked for what has been played already (a publisher that starts again): from the
            // beginning of the pass that holds it.
            if start < playback.bufferStart, !rewind(&playback, to: start) { return [Float](repeating: 0, count: count) }
            let dropped = min(start - playback.bufferStart, playback.buffer.count)
            playback.buffer.removeFirst(dropped)
            playback.bufferStart += dropped
            while playback.bufferStart + playback.buffer.count < start + count {
                guard decodeMore(&playback) else { return [Float](repeating: 0, count: count) }
                let skipped = min(max(0, start - playback.bufferStart), playback.buffer.count)
                playback.buffer.removeFirst(skipped)
                playback.bufferStart += skipped
            }
            let offset = start - playback.bufferStart
            return Array(playback.buffer[offset..<(offset + count)])
        }
    }

    /// Decodes the next block into the buffer, starting the file again at its end; false when
    /// it cannot (the file went, or a pass had no sound).
    private func decodeMore(_ playback: inout Playback) -> Bool {
        do {
            if let block = try playback.reader.next() {
                playback.buffer += block
                return true
            }
            let end = playback.bufferStart + playback.buffer.count
            let length = end - playback.passStart
            guard length > 0 else { return false }
            playback.length = playback.length ?? length
            playback.reader = try AudioFileReader(path: path, rate: 48_000)
            playback.passStart = end
            return true
        } catch {
            return false
        }
    }

    /// Starts again at the beginning of the pass that holds `start`, so decoding forward reaches it.
    private func rewind(_ playback: inout Playback, to start: Int) -> Bool {
        guard let reader = try? AudioFileReader(path: path, rate: 48_000) else { return false }
        let passStart = playback.length.map { start - start % $0 } ?? 0
        playback = Playback(reader: reader, bufferStart: passStart, passStart: passStart, length: playback.length)
        return true
    }
}
