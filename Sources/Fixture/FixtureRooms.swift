import Foundation
import JobSpec

/// A directory of fixtures served as rooms: room X is the fixture `directory/X`, replayed live
/// and looped (`revue serve --fixture-rooms`). The API and the workers ask it the same questions.
public struct FixtureRooms: Sendable, Equatable {
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// The fixture of room `roomID`, if there is one (a room id that could leave the directory is none).
    public func path(of roomID: String) -> String? {
        guard RoomID.isPlausible(roomID) else { return nil }
        let path = directory + "/" + roomID
        return Fixture.exists(at: path) ? path : nil
    }

    /// Every room the directory holds, by name.
    public var roomIDs: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.sorted().filter { path(of: $0) != nil }
    }
}
