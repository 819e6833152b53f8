import Foundation

/// Writes HLS playlists (RFC 8216) for fMP4 segments: pure functions of the segments, so tests
/// compare exact text.
///
/// - `index.m3u8`: the whole event (`EXT-X-PLAYLIST-TYPE:EVENT`), every segment from the first;
///   `EXT-X-ENDLIST` once the job stops. It is the seekable recording (`playbackHlsUrl`).
/// - `live.m3u8`: the last `window` segments with a sliding `EXT-X-MEDIA-SEQUENCE`
///   (`livestreamUrl`); it also gets `EXT-X-ENDLIST` at the end, so players stop polling.
/// - With captions: `captions.m3u8` and `captions_live.m3u8`, the WebVTT segments alike, and
///   the multivariant playlists that tie each to its video: `master.m3u8` and `live_master.m3u8`.
public enum HLSPlaylist {
    /// The initialization segment every playlist names with `EXT-X-MAP`.
    public static let mapURI = "init.mp4"

    public static func index(segments: [HLSSegment], targetDuration: Int, ended: Bool) -> String {
        render(segments, targetDuration: targetDuration, ended: ended, playlistType: "EVENT")
    }

    public static func live(segments: [HLSSegment], window: Int, targetDuration: Int, ended: Bool) -> String {
        render(Array(segments.suffix(window)), targetDuration: targetDuration, ended: ended, playlistType: nil)
    }

    /// A captions media playlist: WebVTT segments, no initialization segment (RFC 8216 §3.5).
    /// `window` nil: every segment (the whole event).
    public static func captions(segments: [HLSSegment], window: Int?, targetDuration: Int, ended: Bool) -> String {
        render(window.map { Array(segments.suffix($0)) } ?? segments, targetDuration: targetDuration, ended: ended,
               playlistType: window == nil ? "EVENT" : nil, map: nil)
    }

    /// A multivariant playlist (RFC 8216 §4.3.4): the video playlist `variant` with its captions
    /// rendition (`EXT-X-MEDIA:TYPE=SUBTITLES`, §4.3.4.1) in the group "captions".
    /// `bandwidth` is the peak segment bit rate (§4.3.4.2); `codecs` RFC 6381 names.
    public static func multivariant(variant: String, captions: String, bandwidth: Int, codecs: [String], resolution: (width: Int, height: Int)?,
                                    language: String) -> String
    {
        ladder([HLSVariant(uri: variant, bandwidth: bandwidth, codecs: codecs, width: resolution?.width, height: resolution?.height)],
               captions: (uri: captions, language: language))
    }

    /// A multivariant playlist of several renditions of one stream (RFC 8216 §4.3.4.2), best
    /// first, each with the captions rendition when there is one (§4.3.4.1, group "captions").
    public static func ladder(_ variants: [HLSVariant], captions: (uri: String, language: String)?) -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-INDEPENDENT-SEGMENTS"]
        if let captions {
            lines.append("#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"captions\",NAME=\"Captions\",LANGUAGE=\"\(captions.language)\",DEFAULT=NO,"
                + "AUTOSELECT=YES,FORCED=NO,URI=\"\(captions.uri)\"")
        }
        for variant in variants {
            lines.append("#EXT-X-STREAM-INF:" + variant.attributes(captionsGroup: captions == nil ? nil : "captions"))
            lines.append(variant.uri)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Ends a playlist a killed writer left open (appends `#EXT-X-ENDLIST`, RFC 8216 §4.3.3.4),
    /// replacing the file whole so a player never reads half of it.
    public static func appendEndList(toFileAt path: String) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), !text.contains("#EXT-X-ENDLIST") else { return }
        replaceWhole(path, with: text + "#EXT-X-ENDLIST\n")
    }

    /// Writes a temporary file and renames it over `path`: a player never reads half of it.
    public static func replaceWhole(_ path: String, with text: String) {
        let temporary = path + ".tmp"
        guard (try? text.write(toFile: temporary, atomically: false, encoding: .utf8)) != nil else { return }
        rename(temporary, path)
    }

    /// The target duration for segments of nominally `nominal` seconds: the smallest whole
    /// number of seconds no segment's rounded duration exceeds (RFC 8216 §4.3.3.1).
    /// Ends the live playlist a killed writer left: its parts, hints and server control go (a
    /// player must not wait for parts that will never come), then `#EXT-X-ENDLIST`. Replaced
    /// whole, as `appendEndList` does.
    public static func endAbandonedLive(atPath path: String) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), !text.contains("#EXT-X-ENDLIST") else { return }
        let lowLatencyTags = ["#EXT-X-PART:", "#EXT-X-PART-INF:", "#EXT-X-PRELOAD-HINT:", "#EXT-X-SERVER-CONTROL:", "#EXT-X-RENDITION-REPORT:"]
        var lines = text.split(separator: "\n").filter { line in !lowLatencyTags.contains { line.hasPrefix($0) } }
        // The segment in progress had only parts: its date goes with them.
        while let last = lines.last, last.hasPrefix("#EXT-X-PROGRAM-DATE-TIME:") { lines.removeLast() }
        replaceWhole(path, with: lines.joined(separator: "\n") + "\n#EXT-X-ENDLIST\n")
    }

    public static func targetDuration(nominal: Double, segments: [HLSSegment]) -> Int {
        let longest = segments.map(\.duration).max() ?? 0
        return max(Int(nominal.rounded(.up)), Int(longest.rounded()), 1)
    }

    static func render(_ segments: [HLSSegment], targetDuration: Int, ended: Bool, playlistType: String?, map: String? = mapURI) -> String {
        var lines = [
            "#EXTM3U",
            "#EXT-X-VERSION:7",
            "#EXT-X-TARGETDURATION:\(targetDuration)",
            "#EXT-X-MEDIA-SEQUENCE:\(segments.first?.sequence ?? 0)",
        ]
        if let playlistType { lines.append("#EXT-X-PLAYLIST-TYPE:\(playlistType)") }
        lines.append("#EXT-X-INDEPENDENT-SEGMENTS")
        if let map { lines.append("#EXT-X-MAP:URI=\"\(map)\"") }
        for segment in segments {
            lines.append("#EXT-X-PROGRAM-DATE-TIME:\(format(segment.programDateTime))")
            lines.append(String(format: "#EXTINF:%.3f,", segment.duration))
            lines.append(segment.uri)
        }
        if ended { lines.append("#EXT-X-ENDLIST") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// ISO 8601 with milliseconds, UTC.
    static func format(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        var whole = time_t(seconds.rounded(.down))
        var millis = Int(((seconds - Double(whole)) * 1000).rounded())
        if millis == 1000 {
            whole += 1
            millis = 0
        }
        var parts = tm()
        gmtime_r(&whole, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                      Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), millis)
    }
}
