import Foundation
import HLS
import Testing

/// The pieces of an HLS ladder (renditions of one stream): the multivariant playlist that lists
/// them and the rendition reports a low-latency playlist gives about the others.
@Suite struct HLSLadderTests {
    /// One rendition with captions: the multivariant playlist the captions have always had.
    @Test func oneRenditionWithCaptions() {
        let text = HLSPlaylist.multivariant(variant: "live.m3u8", captions: "captions_live.m3u8", bandwidth: 1_234_567,
                                            codecs: ["avc1.64001f", "mp4a.40.2"], resolution: (1280, 720), language: "en")
        #expect(text == """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="captions",NAME="Captions",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=YES,FORCED=NO,URI="captions_live.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=1234567,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=1280x720,SUBTITLES="captions"
            live.m3u8

            """)
    }

    /// Two renditions, best first, each with what a player chooses by (RFC 8216 §4.3.4.2).
    @Test func twoRenditionsBestFirst() {
        let text = HLSPlaylist.ladder([
            HLSVariant(uri: "720p/live.m3u8", bandwidth: 3_300_000, averageBandwidth: 2_100_000, codecs: ["avc1.64001f", "mp4a.40.2"],
                       width: 1280, height: 720, framesPerSecond: 30),
            HLSVariant(uri: "360p/live.m3u8", bandwidth: 900_000, codecs: ["avc1.64001e", "mp4a.40.2"], width: 640, height: 360, framesPerSecond: 30),
        ], captions: nil)
        #expect(text == """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-STREAM-INF:BANDWIDTH=3300000,AVERAGE-BANDWIDTH=2100000,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=1280x720,FRAME-RATE=30.000
            720p/live.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=900000,CODECS="avc1.64001e,mp4a.40.2",RESOLUTION=640x360,FRAME-RATE=30.000
            360p/live.m3u8

            """)
    }

    /// A low-latency playlist reports the other renditions' last segment and part after its hint
    /// (draft-pantos-hls-rfc8216bis §4.4.5.4), and still reads back as before.
    @Test func renditionReportsFollowTheHint() {
        let report = HLSRenditionReport(uri: "../360p/live.m3u8", lastSequence: 5, lastPart: 2)
        #expect(report.tag == #"#EXT-X-RENDITION-REPORT:URI="../360p/live.m3u8",LAST-MSN=5,LAST-PART=2"#)
        #expect(HLSRenditionReport(uri: "a.m3u8", lastSequence: 3, lastPart: nil).tag == #"#EXT-X-RENDITION-REPORT:URI="a.m3u8",LAST-MSN=3"#)
        let segments = HLSPlaylistTests.segments([2, 2, 2, 2, 2])
        let edge = HLSPlaylist.Edge(programDateTime: LowLatencyPlaylistTests.start.addingTimeInterval(10),
                                    parts: [HLSPart(sequence: 5, index: 0, uri: HLSPart.uri(sequence: 5, index: 0), duration: 0.5, independent: true)],
                                    nextPartURI: HLSPart.uri(sequence: 5, index: 1))
        let text = HLSPlaylist.lowLatencyLive(segments: segments, parts: [], edge: edge, window: 6, targetDuration: 2,
                                              lowLatency: HLSLowLatency(partTarget: 0.5), renditionReports: [report])
        let lines = text.split(separator: "\n")
        #expect(lines.suffix(2) == [#"#EXT-X-PRELOAD-HINT:TYPE=PART,URI="seg_00005_part1.m4s""#, Substring(report.tag)])
        let read = HLSMediaPlaylist(text: text)
        #expect(read.hintedPart == "seg_00005_part1.m4s" && read.canBlockReload)
        #expect(text.replacingOccurrences(of: report.tag + "\n", with: "")
            == HLSPlaylist.lowLatencyLive(segments: segments, parts: [], edge: edge, window: 6, targetDuration: 2, lowLatency: HLSLowLatency(partTarget: 0.5)))
    }
}
