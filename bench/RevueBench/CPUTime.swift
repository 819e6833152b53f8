import Foundation

/// CPU seconds (user + system) used by this process, or by its finished children.
enum CPUTime {
    static func ofSelf() -> Double { read(RUSAGE_SELF) }
    static func ofChildren() -> Double { read(RUSAGE_CHILDREN) }

    private static func read(_ who: __rusage_who) -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(who.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    /// The largest peak resident set of any finished child, KB (getrusage(2) ru_maxrss).
    static func peakRSSOfChildren() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        return Double(usage.ru_maxrss)
    }

    /// CPU seconds a block takes in this process.
    static func measure(_ body: () throws -> Void) rethrows -> Double {
        let start = ofSelf()
        try body()
        return ofSelf() - start
    }
}
