import Foundation

/// Tests with real WebRTC peers run every peer and server in a network namespace that holds only
/// loopback, so nothing can leave the machine. `scripts/test` runs the suite in one (`unshare -n`,
/// then `ip link set lo up`); such a test refuses to run anywhere else rather than skipping.
public enum LoopbackNamespace {
    /// The network interfaces of this process's namespace (`/proc/self/net/dev` is per
    /// namespace; `/sys/class/net` shows the namespace sysfs was mounted in).
    public static var interfaces: [String] {
        let text = (try? String(contentsOfFile: "/proc/self/net/dev", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").dropFirst(2).compactMap { line in
            line.split(separator: ":").first.map { $0.trimmingCharacters(in: .whitespaces) }
        }.sorted()
    }

    /// Throws unless the only interfaces are `lo` and those tests made here, named `rv…`: a
    /// `ClusterNetwork`'s bridge and cables, which hold TEST-NET addresses only and lead only
    /// to namespaces the test made.
    public static func require() throws {
        let seen = interfaces
        guard seen.contains("lo"), seen.allSatisfy({ $0 == "lo" || $0.hasPrefix("rv") }) else {
            throw ToolError("this test talks to real WebRTC peers and must run in a loopback-only network namespace "
                + "(interfaces here: \(seen.joined(separator: ", "))); run it through scripts/test, which makes one "
                + "(unshare -n, then ip link set lo up)")
        }
    }
}
