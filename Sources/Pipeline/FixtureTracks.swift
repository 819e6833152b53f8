import Fixture
import Ingest

extension Fixture {
    /// The manifest's tracks as the receive path describes them.
    public var trackInfos: [TrackInfo] {
        manifest.tracks.map { participant, track in
            TrackInfo(ssrc: track.ssrc, participantID: participant.id, kind: TrackInfo.Kind(track.kind),
                      codec: TrackInfo.Codec(track.codec), payloadType: track.payloadType, clockRate: track.clockRate,
                      channels: track.channels)
        }
    }
}

extension TrackInfo.Kind {
    init(_ kind: FixtureManifest.TrackKind) {
        switch kind {
        case .video: self = .video
        case .audio: self = .audio
        case .share: self = .share
        }
    }
}

extension TrackInfo.Codec {
    init(_ codec: FixtureManifest.Codec) {
        switch codec {
        case .vp8: self = .vp8
        case .h264: self = .h264
        case .opus: self = .opus
        }
    }
}
