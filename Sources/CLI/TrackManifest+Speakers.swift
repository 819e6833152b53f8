import Foundation
import Outputs
import Transcription

extension TrackManifest {
    /// The audio files a per-participant recording's manifest lists, as speakers to transcribe
    /// (`revue transcribe --tracks`): each participant's own microphone, placed on the part's
    /// clock by its `start`, its muted stretches read as silence by their timestamps. A track
    /// published again is a second file of the same participant. A file its writer did not
    /// finish (`complete` false: a repair could not read it) is left out if it cannot be read.
    static func speakers(manifestPath path: String) throws(TranscriptionError) -> [SpeakerAudio] {
        let what = "track manifest"
        return try SpeakerManifest.decode(TrackManifest.self, at: path, what: what).tracks.filter { $0.kind == "audio" }.map { track throws(TranscriptionError) in
            SpeakerAudio(path: try SpeakerManifest.file(track.file, beside: path, what: what), participantId: track.participantId,
                         participantName: track.name.isEmpty ? track.participantId : track.name, offset: SpeakerManifest.offset(track.start),
                         followingTimestamps: true, mayBeUnreadable: !track.complete)
        }
    }
}
