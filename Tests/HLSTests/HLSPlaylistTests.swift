import Foundation
import HLS
import Testing

@Suite struct HLSPlaylistTests {
    static let start = Date(timeIntervalSince1970: 1_795_964_035) // 2026-11-29T14:53:55Z

    static func segments(_ durations: [Double]) -> [HLSSegment] {
        var time = 0.0
        return durations.enumerated().map { index, duration in
            defer { time += duration }
            return HLSSegment(sequence: index, uri: String(format: "seg_%05d.m4s", index), duration: duration,
                              programDateTime: start.addingTimeInterval(time))
        }
    }

    @Test func theIndexIsTheWholeEvent() {
        let text = HLSPlaylist.index(segments: Self.segments([2, 2, 1.5]), targetDuration: 2, ended: true)
        #expect(text == """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-TARGETDURATION:2
            #EXT-X-MEDIA-SEQUENCE:0
            #EXT-X-PLAYLIST-TYPE:EVENT
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-MAP:URI="init.mp4"
            #EXT-X-PROGRAM-DATE-TIME:2026-11-29T14:53:55.000Z
            #EXTINF:2.000,
            seg_00000.m4s
            #EXT-X-PROGRAM-DATE-TIME:2026-11-29T14:53:57.000Z
            #EXTINF:2.000,
            seg_00001.m4s
            #EXT-X-PROGRAM-DATE-TIME:2026-11-29T14:53:59.000Z
            #EXTINF:1.500,
            seg_00002.m4s
            #EXT-X-ENDLIST

            """)
    }

    @Test func theLivePlaylistSlides() {
        let all = Self.segments(Array(repeating: 2, count: 9))
        let text = HLSPlaylist.live(segments: all, window: 6, targetDuration: 2, ended: false)
        #expect(text == """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-TARGETDURATION:2
            #EXT-X-MEDIA-SEQUENCE:3
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-MAP:URI="init.mp4"
            #EXT-X-PROGRAM-DATE-TIME:2026-11-29T14:54:01.000Z
            #EXTINF:2.000,
            seg_00003.m4s
            #EXT-X-PROGRAM-DATE-TIME:2026-11-29T14:54:03.000Z
            #EXTINF:2.000,
            seg_00004.m4s
            #EXT-X-PROGRAM-DATE-TIME:2026-11-29T14:54:05.000Z
            #EXTINF:2.000,
            seg_00005.m4s
            #EXT-X-PROGRAM-DATE-TIME:2026-11-29T14:54:07.000Z
            #EXTINF:2.000,
            seg_00006.m4s
            #EXT-X-PROGRAM-DATE-TIME:2026-11-29T14:54:09.000Z
            #EXTINF:2.000,
            seg_00007.m4s
            #EXT-X-PROGRAM-DATE-TIME:2026-11-29T14:54:11.000Z
            #EXTINF:2.000,
            seg_00008.m4s

            """)
        #expect(!text.contains("ENDLIST"))
        #expect(!text.contains("PLAYLIST-TYPE"))
    }

    @Test func theTargetDurationCoversTheLongestSegment() {
        #expect(HLSPlaylist.targetDuration(nominal: 2, segments: Self.segments([2, 2])) == 2)
        #expect(HLSPlaylist.targetDuration(nominal: 2, segments: Self.segments([2, 4.2])) == 4)
        #expect(HLSPlaylist.targetDuration(nominal: 1.5, segments: []) == 2)
    }
}
