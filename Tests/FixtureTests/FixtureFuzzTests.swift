import Fixture
import Foundation
import TestSupport
import Testing

/// 100,000 mutated captures and manifests: the parsers throw or return, never crash.
@Suite struct FixtureFuzzTests {
    @Test func pcapReaderSurvivesMutations() throws {
        let data = try #require(FileManager.default.contents(atPath: TestFixtures.path("example") + "/capture.pcap"))
        // The header and first few records keep each round cheap.
        let seed = try Self.prefix(of: Array(data), records: 4)
        var cooked = PcapWriter(link: .linuxCooked2, bigEndian: true, nanoseconds: true, useIPv6: true)
        cooked.append(payload: [0x80, 0x60, 0, 1], time: 1)
        let seeds = [seed, cooked.bytes]
        var generator = SeededGenerator(seed: 11)
        var accepted = 0
        for round in 0..<100_000 {
            if let reader = try? PcapReader(bytes: generator.mutate(seeds[round % 2])) {
                accepted += 1
                #expect(reader.datagrams.count <= 4)
            }
        }
        #expect(accepted > 0)
    }

    @Test func manifestParserSurvivesMutations() throws {
        // A manifest without events, and one whose room changes (join, unpublish, publish,
        // rename, leave and a rejoin).
        let seeds = try ["example", "room-changes"].map { name in
            Array(try #require(FileManager.default.contents(atPath: TestFixtures.path(name) + "/manifest.json")))
        }
        var generator = SeededGenerator(seed: 12)
        var accepted = [0, 0]
        for round in 0..<100_000 {
            if (try? FixtureManifest(json: generator.mutate(seeds[round % 2]))) != nil { accepted[round % 2] += 1 }
        }
        #expect(accepted[0] > 0 && accepted[1] > 0)
    }

    /// The pcap header plus the first `records` records.
    static func prefix(of bytes: [UInt8], records: Int) throws -> [UInt8] {
        var offset = 24
        for _ in 0..<records {
            let length = Int(bytes[offset + 8]) | Int(bytes[offset + 9]) << 8 | Int(bytes[offset + 10]) << 16
            offset += 16 + length
        }
        return Array(bytes.prefix(offset))
    }
}
