import Fixture
import JobSpec
import MediaSource
import RoomReceiver

/// The media source a spec names: a fixture replayed, or a room joined as a hidden recorder.
public struct JobSource {
    public let source: any MediaSource
    /// The room joined, which must be left at the end (nil for a fixture).
    public let room: LiveRoomSource?
    /// Whether the source runs at the room's pace (a room, or a fixture replayed in real time).
    public let realtime: Bool
    /// What the fixture's reader noticed and read past.
    public let warnings: [String]

    public init(_ spec: MediaSourceSpec) throws {
        switch spec {
        case .fixture(let fixtureSpec):
            let fixture = try Fixture(directory: fixtureSpec.directory)
            source = FixtureSource(FixtureReplay(fixture: fixture, pacing: fixtureSpec.realtime ? .realtime : .asFastAsPossible,
                                                 passes: fixtureSpec.passes, loopGap: fixtureSpec.loopGap ?? 0.5))
            room = nil
            realtime = fixtureSpec.realtime
            warnings = fixture.warnings
        case .room(let spec):
            let joined = try LiveRoomSource(configuration: .init(signalingURL: spec.signalingURL, roomID: spec.roomID, token: spec.token))
            source = joined
            room = joined
            realtime = true
            warnings = []
        }
    }
}
