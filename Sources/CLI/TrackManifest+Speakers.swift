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
        let manifest: TrackManifest
        do {
            manifest = try JSONDecoder().decode(TrackManifest.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw TranscriptionError("cannot read the track manifest \(path): \(error)")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return try manifest.tracks.filter { $0.kind == "audio" }.map { track throws(TranscriptionError) in
            // A file name only: the manifest cannot point outside its directory.
            guard !track.file.isEmpty, !track.file.contains("/"), !track.file.hasPrefix(".") else {
                throw TranscriptionError("the track manifest \(path) names a file outside its directory")
            }
            return SpeakerAudio(path: directory + "/" + track.file, participantId: track.participantId,
                                participantName: track.name.isEmpty ? track.participantId : track.name,
                                offset: track.start.isFinite ? max(0, track.start) : 0, followingTimestamps: true,
                                mayBeUnreadable: !track.complete)
        }
    }
}
