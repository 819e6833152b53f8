@testable import SDP
import TestKit
import Testing

/// 100,000 random and mutated descriptions built from the witnessed offers: each must parse or
/// throw, never crash; whatever parses must round-trip and survive the answer builder.
@Suite struct SDPFuzzTests {
    static let rounds = 100_000

    /// Each witnessed offer or answer cut into its session part and its media sections. A seed is
    /// the session part with one of the sections, which keeps inputs near 1 kB so that 100,000 of
    /// them run in reasonable time in a debug build. (Line edits insert lines of other sections.)
    static let pieces: [(session: [Substring], sections: [[Substring]])] =
        (Witnessed.offers.map(\.sdp) + [Witnessed.chromium156SubscriberAnswer, Witnessed.firefox153SubscriberAnswer])
            .map { text in
                var session: [Substring] = []
                var sections: [[Substring]] = []
                for line in text.split(separator: "\n") {
                    if line.hasPrefix("m=") { sections.append([line]) } else if sections.isEmpty { session.append(line) } else { sections[sections.count - 1].append(line) }
                }
                return (session, sections)
            }

    static func seedLines(_ round: Int, _ generator: inout SeededGenerator) -> [Substring] {
        let piece = pieces[round % pieces.count]
        var lines = piece.session
        lines += piece.sections[Int(generator.next() % UInt64(piece.sections.count))]
        return lines
    }

    /// Line-level edits reach deeper than byte edits: a dropped, doubled, swapped or cut line,
    /// or a token replaced by a number, a symbol or nothing.
    static func mutateLines(_ lines: [Substring], _ generator: inout SeededGenerator) -> String {
        var lines = lines.map(String.init)
        let tokens = ["0", "-1", "65536", "4294967296", "*", "", " ", ":", "/", "~", ";", "=", "a=", "m=video 0 X", "sendonly", "actpass",
                      "rtx/90000", "apt=", "BUNDLE", "webrtc-datachannel", "H264/90000", "packetization-mode=1"]
        for _ in 0..<(1 + Int(generator.next() % 4)) where !lines.isEmpty {
            let index = Int(generator.next() % UInt64(lines.count))
            switch generator.next() % 6 {
            case 0: lines.remove(at: index)
            case 1: lines.insert(lines[index], at: index)
            case 2: lines.swapAt(index, Int(generator.next() % UInt64(lines.count)))
            case 3: lines[index] = String(lines[index].prefix(Int(generator.next() % UInt64(lines[index].count + 1))))
            case 4:
                var parts = lines[index].split(separator: " ", omittingEmptySubsequences: false).map(String.init)
                parts[Int(generator.next() % UInt64(parts.count))] = tokens[Int(generator.next() % UInt64(tokens.count))]
                lines[index] = parts.joined(separator: " ")
            default:
                let other: [Substring] = Array(pieces[Int(generator.next() % UInt64(pieces.count))].sections.joined())
                lines.insert(String(other[Int(generator.next() % UInt64(other.count))]), at: index)
            }
        }
        return lines.joined(separator: generator.next() % 2 == 0 ? "\r\n" : "\n")
    }

    @Test func parserSurvivesRandomAndMutatedInput() {
        var generator = SeededGenerator(seed: 8866)
        let builder = AnswerBuilder(transport: SubscriberFixture.transport, sessionID: 1)
        var parsedCount = 0
        var answered = 0
        var roundTripFailures = 0
        for round in 0..<Self.rounds {
            let text: String
            switch round % 10 {
            case 0: text = String(decoding: generator.bytes(Int(generator.next() % 256)), as: UTF8.self)
            case 1, 2, 3, 4:
                let seed = Self.seedLines(round, &generator).joined(separator: "\r\n") + "\r\n"
                text = String(decoding: generator.mutate(Array(seed.utf8)), as: UTF8.self)
            default: text = Self.mutateLines(Self.seedLines(round, &generator), &generator)
            }
            guard let description = try? SessionDescription(parsing: text) else { continue }
            parsedCount += 1
            if (try? SessionDescription(parsing: description.serialize())) != description { roundTripFailures += 1 }
            if let answer = try? builder.answer(to: description) {
                answered += 1
                if (try? SessionDescription(parsing: answer.description.serialize())) != answer.description { roundTripFailures += 1 }
            }
        }
        #expect(roundTripFailures == 0)
        #expect(parsedCount > Self.rounds / 4)
        #expect(answered > Self.rounds / 10)
    }

    @Test func answerReaderSurvivesMutatedAnswers() throws {
        var generator = SeededGenerator(seed: 3264)
        let offer = try SubscriberFixture.offer()
        let lines = [Witnessed.chromium156SubscriberAnswer, Witnessed.firefox153SubscriberAnswer, Witnessed.aiortc116SubscriberAnswer]
            .map { $0.split(separator: "\n") }
        var accepted = 0
        for round in 0..<20_000 {
            guard let answer = try? SessionDescription(parsing: Self.mutateLines(lines[round % lines.count], &generator)) else { continue }
            if (try? SubscriberFixture.builder.negotiate(answer: answer, to: offer)) != nil { accepted += 1 }
        }
        #expect(accepted > 0)
    }
}
