import CFFmpeg

/// FFmpeg's own logging, which writes to standard error.
public enum LibAVLog {
    /// Only errors by default: decoders report every damaged frame at warning level, and Revue
    /// counts those itself.
    public static func setLevel(_ level: Int32 = revue_av_log_error()) {
        av_log_set_level(level)
    }

    public static var quiet: Int32 { revue_av_log_quiet() }
}
