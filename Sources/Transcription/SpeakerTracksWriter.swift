import Foundation
import Log
import Speech

/// Keeps each participant's own audio while a job records, for its transcript: one WAV file per
/// participant (16 kHz mono, 16-bit), on the recording's clock from their first block on, with
/// silence where they sent nothing, and `speakers.json` naming them.
///
/// Files are written as the blocks come, with a WAV header whose sizes say "to the end of the
/// file" until `finish` writes the real ones, so a killed job leaves readable files. Called from
/// the pipeline's one thread.
public final class SpeakerTracksWriter {
    public let directory: String
    /// A participant away longer than this (in 48 kHz samples, ten minutes) gets a new file.
    static let longestGap: Int64 = 48_000 * 600
    private let logger: Logger
    private var tracks: [String: Track] = [:]
    private var manifest = SpeakerTracks()
    private var failed = false

    private final class Track {
        let handle: FileHandle
        var downsampler = Downsampler()
        /// The output sample (48 kHz) the file's first sample stands for, and how many 48 kHz
        /// samples the file covers so far.
        let firstSample: Int64
        var covered: Int64 = 0
        var bytes: Int64 = 0

        init(handle: FileHandle, firstSample: Int64) {
            self.handle = handle
            self.firstSample = firstSample
        }

        deinit { try? handle.close() }
    }

    public init(directory: String, logger: Logger = Logger(label: "speakers")) throws(TranscriptionError) {
        self.directory = directory
        self.logger = logger
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            // From the start, so an attempt in which nobody speaks still says so.
            try writeManifest()
        } catch {
            throw TranscriptionError("cannot make \(directory): \(error.localizedDescription)")
        }
    }

    /// One block of one participant: interleaved stereo 48 kHz `samples` starting `offset`
    /// frames into a block of `blockFrames` that starts at output sample `blockStart`.
    public func add(participantID: String, name: String, samples: ArraySlice<Float>, offset: Int, blockFrames: Int, blockStart: Int64) {
        guard !failed else { return }
        do {
            let track: Track
            if let existing = tracks[participantID], blockStart - (existing.firstSample + existing.covered) > Self.longestGap {
                // Away for long: a new file from their return, rather than minutes of silence.
                guard !samples.isEmpty else { return }
                track = try open(participantID: participantID, name: name, blockStart: blockStart)
            } else if let existing = tracks[participantID] {
                track = existing
                if let index = manifest.speakers.firstIndex(where: { $0.participantId == participantID }), manifest.speakers[index].name != name {
                    manifest.speakers[index].name = name
                    try writeManifest()
                }
            } else {
                // The first block with sound starts the file; a participant who never speaks has none.
                guard !samples.isEmpty else { return }
                track = try open(participantID: participantID, name: name, blockStart: blockStart)
            }
            // Silence for blocks they were away (left and came back).
            let gap = blockStart - (track.firstSample + track.covered)
            if gap > 0 { try append([Float](repeating: 0, count: Int(gap)), to: track) }
            var mono = [Float](repeating: 0, count: blockFrames)
            var frame = offset
            var index = samples.startIndex
            while index + 1 < samples.endIndex, frame < blockFrames {
                mono[frame] = (samples[index] + samples[index + 1]) / 2
                index += 2
                frame += 1
            }
            try append(mono, to: track)
        } catch {
            failed = true
            logger.error("speaker audio for the transcript stopped; the recording goes on", ["error": .string("\(error)")])
        }
    }

    /// Writes the WAV headers' real sizes.
    public func finish() {
        tracks.values.forEach(close)
        tracks = [:]
    }

    private func close(_ track: Track) {
        try? track.handle.seek(toOffset: 4)
        try? track.handle.write(contentsOf: Self.littleEndian(UInt32(clamping: 36 + track.bytes)))
        try? track.handle.seek(toOffset: 40)
        try? track.handle.write(contentsOf: Self.littleEndian(UInt32(clamping: track.bytes)))
    }

    private func open(participantID: String, name: String, blockStart: Int64) throws -> Track {
        let file = "speaker-\(manifest.speakers.count + 1).wav"
        let path = directory + "/" + file
        guard FileManager.default.createFile(atPath: path, contents: Self.header), let handle = FileHandle(forWritingAtPath: path) else {
            throw TranscriptionError("cannot create \(path)")
        }
        try handle.seekToEnd()
        tracks[participantID].map(close)
        let track = Track(handle: handle, firstSample: blockStart)
        tracks[participantID] = track
        manifest.speakers.append(.init(participantId: participantID, name: name, file: file, offset: Double(blockStart) / 48_000))
        try writeManifest()
        return track
    }

    private func append(_ mono48k: [Float], to track: Track) throws {
        let samples = track.downsampler.process(mono48k)
        var bytes = Data(capacity: samples.count * 2)
        for sample in samples {
            let value = Int16(max(-32_768, min(32_767, (sample * 32_767).rounded())))
            bytes.append(UInt8(truncatingIfNeeded: value))
            bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        }
        try track.handle.write(contentsOf: bytes)
        track.covered += Int64(mono48k.count)
        track.bytes += Int64(bytes.count)
    }

    private func writeManifest() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let path = directory + "/" + SpeakerTracks.manifestName
        try encoder.encode(manifest).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// A WAV header for 16 kHz mono 16-bit PCM whose sizes say "as long as the file" (readers
    /// read such a file to its end) until `finish` writes the real ones.
    static let header: Data = {
        var bytes = Data("RIFF".utf8) + littleEndian(UInt32.max) + Data("WAVEfmt ".utf8)
        bytes += littleEndian(UInt32(16)) + littleEndian(UInt16(1)) + littleEndian(UInt16(1))
        bytes += littleEndian(UInt32(16_000)) + littleEndian(UInt32(32_000)) + littleEndian(UInt16(2)) + littleEndian(UInt16(16))
        bytes += Data("data".utf8) + littleEndian(UInt32.max - 36)
        return bytes
    }()

    static func littleEndian<T: FixedWidthInteger>(_ value: T) -> Data {
        withUnsafeBytes(of: value.littleEndian) { Data($0) }
    }
}
