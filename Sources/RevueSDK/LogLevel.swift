/// How much the SDK logs (`VideoSDK.setLogLevel(level:)`), from least to most: each level
/// includes the ones before it. On Linux the lines go to standard error through Revue's logger
/// (one JSON object a line, or text with `REVUE_LOG_FORMAT=text`).
public enum LogLevel: Int, Sendable, Hashable, CaseIterable, Comparable {
    case NONE
    case ERROR
    case WARN
    case INFO
    case DEBUG
    case ALL

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
