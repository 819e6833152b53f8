import Fixture
import Pipeline
import TestSupport
import Testing

/// The example fixture through ingest and the decoders.
@Suite struct FixtureInspectorTests {
    @Test func theExampleDecodesCompletelyWithoutLoss() throws {
        let report = FixtureInspector.inspect(try Fixture(directory: TestFixtures.path("example")))
        #expect(report.tracks.count == 4)
        for track in report.tracks {
            #expect(track.lost == 0, "\(track.ssrc)")
            #expect(track.reordered == 0)
            #expect(track.duplicates == 0)
            #expect(track.malformed == 0)
            #expect(track.decodeErrors == 0)
            #expect(track.senderReports == 2)
            if track.kind == "video" {
                // Every assembled frame is decoded; 6 s at 30 fps, a keyframe every 2 s.
                #expect(track.framesAssembled == 180)
                #expect(track.framesDecoded == track.framesAssembled)
                #expect(track.keyframes == 3)
                #expect(track.resolutions == ["640x360"])
            } else {
                #expect(track.framesDecoded == track.packets)
                // Opus: 50 packets a second (20 ms frames).
                #expect(abs(track.packetsPerSecond - 50) < 0.5)
            }
            let first = try #require(track.firstMediaTime)
            let last = try #require(track.lastMediaTime)
            #expect(first > -0.1 && first < 0.1)
            #expect(last > 5.8 && last < 6.1)
        }
        for participant in report.participants {
            #expect(participant.audioVideoOffsetMilliseconds != nil)
        }
        #expect(report.unknownSSRCPackets == 0)
        #expect(report.text.contains("participant erin (Erin)"))
    }
}
