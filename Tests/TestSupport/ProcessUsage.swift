import Foundation

/// What a process uses, read from /proc (proc(5)): resident memory, CPU time and threads.
public struct ProcessUsage: Sendable, CustomStringConvertible {
    /// Resident set size, bytes (`VmRSS`).
    public var residentBytes: Int
    /// User and system CPU seconds since the process started (`utime` + `stime`).
    public var cpuSeconds: Double
    public var threads: Int

    public init(residentBytes: Int, cpuSeconds: Double, threads: Int) {
        self.residentBytes = residentBytes
        self.cpuSeconds = cpuSeconds
        self.threads = threads
    }

    /// Reads `pid`'s usage; nil when it is gone.
    public static func of(_ pid: pid_t) -> ProcessUsage? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let afterName = stat.range(of: ") ", options: .backwards)
        else { return nil }
        func field(_ name: String) -> Int? {
            status.split(separator: "\n").first { $0.hasPrefix(name + ":") }
                .flatMap { $0.split(whereSeparator: \.isWhitespace).dropFirst().first }.flatMap { Int($0) }
        }
        // Fields after the command's name: state is 3rd, utime the 14th and stime the 15th of the whole line.
        let fields = stat[afterName.upperBound...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return ProcessUsage(residentBytes: (field("VmRSS") ?? 0) * 1024, cpuSeconds: (user + system) / ticks, threads: field("Threads") ?? 0)
    }

    public var residentMiB: Double { Double(residentBytes) / 1_048_576 }

    public var description: String {
        String(format: "RSS %.1f MiB, CPU %.2f s, %d threads", residentMiB, cpuSeconds, threads)
    }
}
