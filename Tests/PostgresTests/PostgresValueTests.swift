import Foundation
@testable import Postgres
import TestSupport
import Testing

/// The text parsers for values the server sends, with table cases and random input.
@Suite struct PostgresValueTests {
    @Test(arguments: [
        ("2026-11-29 14:53:55+00", 1_795_964_035.0),
        ("2026-11-29 14:53:55.5+00", 1_795_964_035.5),
        ("2026-11-29 16:53:55+02", 1_795_964_035.0),
        ("2026-11-29 09:23:55-05:30", 1_795_964_035.0),
        ("2026-11-29T14:53:55Z", 1_795_964_035.0),
    ])
    func timestampsParse(text: String, epoch: Double) throws {
        let date = try #require(PostgresTimestamp.parse(text))
        #expect(abs(date.timeIntervalSince1970 - epoch) < 1e-6)
    }

    @Test(arguments: ["", "2026", "2026-13-01 00:00:00", "2026-11-29 14:53", "2026-11-29 14:53:55+", "x026-11-29 14:53:55",
                      "2026-11-29 14:53:55.", "2026-11-29 14:53:55+00junk"])
    func badTimestampsAreRejected(text: String) {
        #expect(PostgresTimestamp.parse(text) == nil)
    }

    @Test func timestampFormatRoundTrips() throws {
        let date = Date(timeIntervalSince1970: 1_795_964_035.25)
        let parsed = try #require(PostgresTimestamp.parse(PostgresTimestamp.format(date)))
        #expect(abs(parsed.timeIntervalSince(date)) < 1e-6)
    }

    @Test func byteaHexParses() throws {
        #expect(try PostgresBytes(postgresText: "\\x00ff10").bytes == [0, 255, 16])
        #expect(throws: PostgresError.self) { try PostgresBytes(postgresText: "00ff") }
        #expect(throws: PostgresError.self) { try PostgresBytes(postgresText: "\\x0") }
        #expect(throws: PostgresError.self) { try PostgresBytes(postgresText: "\\xzz") }
    }

    @Test func connectionStringsAreRedacted() {
        #expect(PostgresConnection.redacted("postgresql://revue:s3cret@db:5432/revue") == "postgresql://revue:***@db:5432/revue")
        #expect(PostgresConnection.redacted("host=db password=s3cret user=x") == "host=db password=*** user=x")
        #expect(PostgresConnection.redacted("host=db user=x") == "host=db user=x")
    }

    /// 100,000 random and mutated strings: the parsers return nil or throw, and never crash.
    @Test func randomTextNeverCrashesTheParsers() {
        var generator = SeededGenerator(seed: 0x5EED)
        let seeds = ["2026-11-29 14:53:55.123456+00", "\\x00ff", "t", "-Infinity", "123"]
        var parsed = 0
        for round in 0..<100_000 {
            var bytes = Array(seeds[round % seeds.count].utf8)
            let edits = Int(generator.next() % 4)
            for _ in 0...edits {
                let position = bytes.isEmpty ? 0 : Int(generator.next() % UInt64(bytes.count))
                switch generator.next() % 3 {
                case 0 where !bytes.isEmpty: bytes[position] = UInt8(truncatingIfNeeded: generator.next())
                case 1: bytes.insert(UInt8(truncatingIfNeeded: generator.next() % 128), at: position)
                default: if !bytes.isEmpty { bytes.remove(at: position) }
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            if PostgresTimestamp.parse(text) != nil { parsed += 1 }
            _ = try? PostgresBytes(postgresText: text)
            _ = try? Bool(postgresText: text)
            _ = try? Double(postgresText: text)
            _ = try? Int(postgresText: text)
        }
        // Some mutations stay valid timestamps; most do not.
        #expect(parsed > 0 && parsed < 100_000)
    }
}
