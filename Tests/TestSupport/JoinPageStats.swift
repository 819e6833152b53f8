import Foundation

/// What the join page (`/join`) in a headless browser says it receives (`window.revue.stats()`,
/// the page's own WebRTC statistics).
public enum JoinPageStats {
    /// The page's statistics, empty before it has any.
    public static func of(_ page: HeadlessChromium.Page) throws -> [String: Any] {
        (try page.evaluate("window.revue ? window.revue.stats() : null") as? [String: Any]) ?? [:]
    }

    /// The largest `field` among the inbound streams of `kind` (`audio`, `video`).
    public static func inbound(_ stats: [String: Any], kind: String, _ field: String) -> Int {
        ((stats["inbound"] as? [[String: Any]]) ?? []).filter { $0["kind"] as? String == kind }.map { $0[field] as? Int ?? 0 }.max() ?? 0
    }
}

/// Polls a condition every quarter second until it holds or `timeout` seconds pass: live tests
/// wait for what they check, never for a fixed time.
public enum Poll {
    public static func until(_ timeout: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.25)
        }
        return try condition()
    }
}
