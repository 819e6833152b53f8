import Foundation
import Synchronization

/// Where log lines go, and how they look. One instance per process.
///
/// The format and level come from `REVUE_LOG_FORMAT` (`json`, the default, or `text`) and
/// `REVUE_LOG_LEVEL` (`debug`, `info`, `warning`, `error`; default `info`), and can be changed
/// at run time, for example by a command's `--log-level` flag.
public final class LogOutput: Sendable {
    public enum Format: String, Sendable {
        /// One JSON object per line, for machines.
        case json
        /// `time level label: message key=value`, for a person at a terminal.
        case text
    }

    public struct Configuration: Sendable {
        public var level: LogLevel
        public var format: Format
        /// False writes nothing at any level (the SDK's `LogLevel.NONE`; there is no level
        /// above `error` to set instead).
        public var enabled: Bool

        public init(level: LogLevel, format: Format, enabled: Bool = true) {
            self.level = level
            self.format = format
            self.enabled = enabled
        }
    }

    public static let shared = LogOutput(environment: ProcessInfo.processInfo.environment)

    private let state: Mutex<Configuration>
    private let writeLock = Mutex(())

    init(environment: [String: String]) {
        let level = environment["REVUE_LOG_LEVEL"].flatMap(LogLevel.init(name:)) ?? .info
        let format = environment["REVUE_LOG_FORMAT"].flatMap(Format.init(rawValue:)) ?? .json
        state = Mutex(Configuration(level: level, format: format))
    }

    public var configuration: Configuration {
        get { state.withLock { $0 } }
    }

    public func configure(_ change: (inout Configuration) -> Void) {
        state.withLock { change(&$0) }
    }

    /// Writes one whole line with a single write(2), so lines from threads never interleave.
    func write(_ line: String) {
        writeLock.withLock { _ in
            var bytes = Array(line.utf8)
            bytes.append(UInt8(ascii: "\n"))
            bytes.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress else { return }
                var offset = 0
                while offset < buffer.count {
                    let written = Foundation.write(2, base + offset, buffer.count - offset)
                    if written <= 0 { return }
                    offset += written
                }
            }
        }
    }
}
