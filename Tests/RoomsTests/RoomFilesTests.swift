import Foundation
import Postgres
import Rooms
import TestSupport
import Testing

/// The SDK's temporary files in a real PostgreSQL: stored, read back whole, gone after a day;
/// names that could not be one URL path segment refused, whatever bytes they are made of.
@Suite(.live, .timeLimit(.minutes(10))) struct RoomFilesTests {
    let files: RoomFiles

    init() throws {
        files = RoomFiles(pool: PostgresPool(try JobDatabase.make(), size: 2))
    }

    @Test func aFileIsKeptForADay() throws {
        let content = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let now = Date()
        let id = try files.store(roomID: "room-1", name: "deck.pdf", content: content, uploadedBy: "ann", now: now)
        let file = try #require(try files.file(id, now: now.addingTimeInterval(60)))
        #expect(file.content == content && file.name == "deck.pdf" && file.roomID == "room-1" && file.uploadedBy == "ann")
        #expect(try files.file(id, now: now.addingTimeInterval(RoomFiles.lifetime + 1)) == nil, "expired after a day")
        #expect(try files.file(UUID(), now: now) == nil)
        // Storing again deletes what has expired by then.
        _ = try files.store(roomID: "room-1", name: "next.txt", content: [1], uploadedBy: nil, now: now.addingTimeInterval(RoomFiles.lifetime + 1))
        #expect(try files.file(id, now: now) == nil, "the expired row was deleted")
    }

    @Test func namesAreOnePathSegment() {
        for good in ["name.jpeg", "name 1.jpeg", "Résumé (final).pdf", String(repeating: "a", count: 255)] {
            #expect(RoomFiles.isValidName(good), "\(good)")
        }
        for bad in ["", ".", "..", "a/b", "..\\x", "a\u{0}b", "line\nbreak", String(repeating: "é", count: 128)] {
            #expect(!RoomFiles.isValidName(bad), "\(bad.debugDescription)")
        }
        // Random names: valid ones never hold a separator or a control character.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let scalars = (0..<Int.random(in: 0...20, using: &generator)).compactMap { _ in Unicode.Scalar(UInt32.random(in: 0...0x7FF, using: &generator)) }
            let name = String(String.UnicodeScalarView(scalars))
            if RoomFiles.isValidName(name) {
                #expect(!name.contains("/") && !name.contains("\\") && !name.unicodeScalars.contains { $0.properties.generalCategory == .control })
            }
        }
    }
}
