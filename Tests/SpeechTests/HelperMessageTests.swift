import Foundation
import Testing
import TestKit

@testable import Speech

@Suite struct HelperMessageTests {
    @Test func readsEachMessage() throws {
        #expect(try HelperMessage.decode(Array(#"{"type":"ready","engine":"faster-whisper","engineVersion":"1.2.1","model":"tiny.en"}"#.utf8))
            == .ready(engine: "faster-whisper", engineVersion: "1.2.1", model: "tiny.en"))
        #expect(try HelperMessage.decode(Array(#"{"type":"error","id":3,"message":"boom"}"#.utf8)) == .error(id: 3, message: "boom"))
        let result = try HelperMessage.decode(Array(#"{"type":"result","id":4,"seconds":0.2,"segments":[{"start":0.1,"end":0.05,"text":"Hi","noSpeech":0.01,"words":[{"start":0.1,"end":0.4,"word":"Hi","probability":1.5}]}]}"#.utf8))
        // An end before its start becomes the start; a probability over 1 becomes 1.
        #expect(result == .result(id: 4, segments: [RecognizedSegment(start: 0.1, end: 0.1, text: "Hi", words: [RecognizedWord(start: 0.1, end: 0.4, word: "Hi", probability: 1)])], seconds: 0.2))
    }

    @Test func refusesWhatIsNotTheProtocol() {
        for line in ["", "{", "[]", #"{"type":"hello"}"#, #"{"type":"result","id":1}"#,
                     #"{"type":"result","id":1,"segments":[{"start":-1,"end":2,"text":"x"}]}"#,
                     #"{"type":"result","id":1,"segments":[{"start":1e300,"end":2,"text":"x"}]}"#] {
            #expect(throws: SpeechError.self) { try HelperMessage.decode(Array(line.utf8)) }
        }
    }

    /// Random and mutated lines: each is read or refused, none crashes; both outcomes happen.
    @Test func randomLinesAreReadOrRefused() {
        var generator = SeededGenerator(seed: 22)
        let seeds = [#"{"type":"result","id":4,"seconds":0.2,"segments":[{"start":0.1,"end":0.5,"text":"Hi","words":[{"start":0.1,"end":0.4,"word":"Hi"}]}]}"#,
                     #"{"type":"ready","engine":"e","engineVersion":"1","model":"m"}"#, #"{"type":"error","message":"x"}"#].map { Array($0.utf8) }
        var read = 0, refused = 0
        for round in 0..<20_000 {
            var line = seeds[round % seeds.count]
            for _ in 0..<Int.random(in: 0...4, using: &generator) {
                let index = Int.random(in: 0..<line.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: line[index] = UInt8.random(in: 0...255, using: &generator)
                case 1: line.remove(at: index)
                default: line.insert(UInt8.random(in: 32...126, using: &generator), at: index)
                }
            }
            if (try? HelperMessage.decode(line)) != nil { read += 1 } else { refused += 1 }
        }
        #expect(read > 100)
        #expect(refused > 100)
    }

    @Test func aRequestIsAJSONLineThenLittleEndianPCM() {
        let bytes = HelperRequest.transcribe(id: 9, samples: [0, 1, -1, 0.5])
        let header = #"{"type":"transcribe","id":9,"sampleRate":16000,"samples":4}"#
        #expect(Array(bytes.prefix(header.utf8.count + 1)) == Array(header.utf8) + [0x0A])
        #expect(Array(bytes.suffix(8)) == [0x00, 0x00, 0xFF, 0x7F, 0x00, 0x80, 0x00, 0x40])
    }
}
