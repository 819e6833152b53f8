import Decode
import Foundation
import Speech
import Testing
import TestSupport

@testable import Transcription

@Suite struct SpeakerTracksWriterTests {
    /// Two participants: Ann from the first block, Bob from the third, away for two blocks and
    /// back. Each file starts at their first sound, on the recording's clock, with silence for
    /// the blocks they missed; the manifest names them; the files read back whole.
    @Test func eachParticipantHasAFileOnTheRecordingsClock() throws {
        let directory = try TemporaryDirectory(prefix: "speakers")
        let writer = try SpeakerTracksWriter(directory: directory.path)
        #expect(try SpeakerTracks.load(directory.file("speakers.json")).isEmpty, "the manifest exists from the start")
        let block = 1_024
        let loud = ArraySlice([Float](repeating: 0.25, count: block * 2))
        for index in 0..<8 {
            let start = Int64(1_024 + index * block)
            writer.add(participantID: "ann", name: "Ann", samples: loud, offset: 0, blockFrames: block, blockStart: start)
            if index >= 2 && !(4...5).contains(index) {
                writer.add(participantID: "bob", name: index >= 6 ? "Robert" : "Bob", samples: loud.prefix(block), offset: block / 2,
                           blockFrames: block, blockStart: start)
            }
        }
        writer.add(participantID: "cat", name: "Cat", samples: [][...], offset: 0, blockFrames: block, blockStart: 9 * 1_024)
        writer.finish()
        let speakers = try SpeakerTracks.load(directory.file("speakers.json"))
        #expect(speakers.map(\.participantId) == ["ann", "bob"], "Cat sent nothing: no file")
        #expect(speakers.map(\.participantName) == ["Ann", "Robert"])
        #expect(abs(speakers[0].offset - 1_024 / 48_000) < 1e-9)
        #expect(abs(speakers[1].offset - Double(1_024 + 2 * block) / 48_000) < 1e-9)
        func read(_ path: String) throws -> [Float] {
            let reader = try AudioFileReader(path: path, rate: 16_000)
            var samples: [Float] = []
            while let next = try reader.next() { samples += next }
            return samples
        }
        let ann = try read(speakers[0].path), bob = try read(speakers[1].path)
        #expect(abs(ann.count - 8 * block / 3) <= 2)
        #expect(abs(bob.count - 6 * block / 3) <= 2)
        // Bob's away blocks (4 and 5, which are his 3rd and 4th) are silence.
        let away = bob[(2 * block / 3 + 20)..<(4 * block / 3 - 20)]
        #expect(away.allSatisfy { abs($0) < 0.001 })
        #expect(ann[(block / 3)..<(2 * block / 3)].allSatisfy { abs($0 - 0.25) < 0.01 })
    }

    @Test func aManifestCannotPointOutsideItsDirectory() throws {
        let directory = try TemporaryDirectory(prefix: "manifest")
        try Data(#"{"speakers":[{"participantId":"x","name":"X","file":"../../etc/passwd","offset":0}]}"#.utf8)
            .write(to: URL(fileURLWithPath: directory.file("speakers.json")))
        #expect(throws: TranscriptionError.self) { try SpeakerTracks.load(directory.file("speakers.json")) }
    }
}
