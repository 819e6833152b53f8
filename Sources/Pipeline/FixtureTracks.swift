import Fixture
import Ingest

extension Fixture {
    /// Every track the capture carries, as the receive path describes them (including those
    /// published by later events).
    public var trackInfos: [TrackInfo] {
        manifest.tracks.map { TrackInfo($0.track, participantID: $0.participantID) }
    }
}
