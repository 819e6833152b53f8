import Foundation
import Testing

/// Which tests a run takes: all of them (the default, and what CI runs), or only the fast ones
/// (`scripts/test --fast`, which sets `REVUE_TESTS=fast`): no browsers, no peers, no servers, no
/// PostgreSQL, nothing in real time. Swift Testing 6.3 cannot pick tests by tag on the command
/// line, so the slow ones carry a condition (`.live`, `.browser`) that the fast run turns off,
/// and the run lists each one it leaves out with the reason.
public enum TestScope {
    /// Whether this run leaves out live and browser tests.
    public static let isFast = ProcessInfo.processInfo.environment["REVUE_TESTS"] == "fast"
}

extension Trait where Self == ConditionTrait {
    /// The test starts real processes or peers (a room server, the `revue` binary, PostgreSQL,
    /// aiortc, nginx-rtmp, rclone) or runs media in real time: left out of the fast run.
    public static var live: Self {
        .enabled(if: !TestScope.isFast, "live: starts servers, peers or PostgreSQL (scripts/test --fast leaves it out)")
    }

    /// The test drives a real browser (Chromium or Firefox): left out of the fast run.
    public static var browser: Self {
        .enabled(if: !TestScope.isFast, "browser: drives Chromium or Firefox (scripts/test --fast leaves it out)")
    }
}
