/// What one part of a job is: the job layer talks about parts and their kinds, and only the
/// Outputs module knows what each kind is on disk.
public enum PartKind: String, Sendable, Codable, CaseIterable {
    /// A crash-safe MP4 file (`recordings/<job>/part-N.mp4`).
    case mp4
    /// An HLS directory with `index.m3u8`, `live.m3u8` and fMP4 segments (`hls/<job>/part-N`).
    case hls
    /// A transcript of a part's speech: a directory with `transcript.json`, `.vtt`, `.srt` and
    /// `.txt` (`recordings/<job>/part-N.transcript`, `hls/<job>/part-N.transcript`).
    case transcript
    /// Each participant's tracks as they arrived (`config.mode: "tracks"`): a directory with a
    /// WebM or Matroska file per track and `manifest.json` (`recordings/<job>/part-N.tracks`).
    case tracks
}
