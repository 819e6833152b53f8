import JobSpec
import Jobs
import Testing

/// Where a part's transcript goes: beside it, named for it.
@Suite struct TranscriptPartTests {
    @Test func aTranscriptIsNamedForItsPart() {
        for (kind, path, transcript) in [(PartKind.mp4, "recordings/j/part-2.mp4", "recordings/j/part-2.transcript"),
                                         (.tracks, "recordings/j/part-1.tracks", "recordings/j/part-1.transcript"),
                                         (.hls, "hls/j/part-3", "hls/j/part-3.transcript")]
        {
            #expect(TranscriptPart.path(beside: JobPart(attempt: 1, kind: kind, path: path, status: .complete)) == transcript)
        }
    }
}
