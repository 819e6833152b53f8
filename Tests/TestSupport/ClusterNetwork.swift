import Foundation
import Platform
import Synchronization

/// A cluster's network on one machine (docs/CLUSTER.md, "Testing"): a bridge in the
/// test's own network namespace at 192.0.2.1/24, where PostgreSQL (through a proxy), the SDK
/// and the browsers are, and each node in a network namespace of its own, joined to the bridge
/// by a veth pair, at 192.0.2.(10 + n). The addresses are TEST-NET-1 (RFC 5737) and exist only
/// inside these namespaces, which have no route anywhere else: nothing leaves them. A node's
/// namespace ends with its process (and its veth pair with it), so killing a node is killing
/// its process; `unplug` takes its cable out instead.
///
/// One network serves the whole test process (`shared()`), and its bridge stays until the
/// process (and so its namespace) ends: a browser or peer of another test running meanwhile may
/// have gathered the bridge's address, and an address that vanished under it would fail its
/// connection. Each node gets a number of its own (`seat()`), never used again.
///
/// Needs what the loopback tests need (root in the test's namespace); the interfaces it makes
/// are named `rv…`, which `LoopbackNamespace.require` accepts beside `lo`.
public final class ClusterNetwork: Sendable {
    /// The test's side of the bridge.
    public static let hubAddress = "192.0.2.1"
    public let bridge = "rvbr"
    /// PostgreSQL as the nodes reach it: a proxy on the bridge's address.
    public let databaseProxy: TCPProxy
    /// Each node's veth name on the bridge, by number.
    private let plugged = Mutex<[Int: String]>([:])
    private let seats = Atomic<Int>(0)
    private static let instance = Mutex<ClusterNetwork?>(nil)

    /// The process's network, made on first use.
    public static func shared() throws -> ClusterNetwork {
        try instance.withLock { current in
            if let current { return current }
            let made = try ClusterNetwork(databasePort: try TemporaryPostgres.shared().cluster.port)
            current = made
            return made
        }
    }

    /// Makes the bridge. `databasePort` is the test PostgreSQL's port on 127.0.0.1.
    private init(databasePort: Int) throws {
        try LoopbackNamespace.require()
        try Self.ip(["link", "add", bridge, "type", "bridge"])
        try Self.ip(["addr", "add", Self.hubAddress + "/24", "dev", bridge])
        try Self.ip(["link", "set", bridge, "up"])
        databaseProxy = try TCPProxy(upstreamPort: databasePort, host: Self.hubAddress)
    }

    /// Starts `count` nodes (`revue serve`, each in a namespace of its own, sharing a fresh
    /// database), node `n` (from 1) with the arguments `arguments(n)` and a job worker when
    /// `worker(n)`; the nodes, and the database's connection string as the test reaches it.
    public func startNodes(_ count: Int, arguments: (Int) -> [String] = { _ in [] }, worker: (Int) -> Bool = { _ in false }) throws
        -> (nodes: [RevueServe], databaseURL: String)
    {
        let local = try JobDatabase.make()
        guard let name = local.split(separator: " ").first(where: { $0.hasPrefix("dbname=") })?.dropFirst("dbname=".count) else {
            throw ToolError("no database name in \(local)")
        }
        let nodes = try (1...count).map { number in
            try RevueServe(arguments: ["--node-id", "node-\(number)"] + arguments(number), databaseURL: databaseURL(String(name)),
                           seat: try RevueServe.Seat(on: self), worker: worker(number))
        }
        return (nodes, local)
    }

    /// A node number no node had before in this process (1 is 192.0.2.11).
    public func seat() throws -> Int {
        let number = seats.wrappingAdd(1, ordering: .relaxed).newValue
        guard number <= 240 else { throw ToolError("the cluster network has no addresses left") }
        return number
    }

    /// Node `number`'s address (1 is 192.0.2.11).
    public static func address(node number: Int) -> String { "192.0.2.\(10 + number)" }

    /// A connection string for `database` on the test PostgreSQL, as the nodes reach it.
    public func databaseURL(_ database: String) -> String {
        "host=\(Self.hubAddress) port=\(databaseProxy.port) user=postgres dbname=\(database) connect_timeout=10"
    }

    /// The command that runs `program` in a network namespace of its own, once `plug` gave it its
    /// address: `unshare -n` makes the namespace and execs, so the process keeps the pid `plug`
    /// and a kill need.
    public func launcher(node number: Int) -> [String] {
        let script = """
            ip link set lo up
            for _ in $(seq 1 400); do
              ip -4 -o addr show | grep -q ' \(Self.address(node: number))/' && exec "$@"
              sleep 0.025
            done
            echo "no address in 10 s" >&2; exit 1
            """
        return ["unshare", "-n", "--", "bash", "-c", script, "node-\(number)"]
    }

    /// Cables the namespace of process `pid` (started through `launcher(node:)`) to the bridge
    /// as node `number`.
    public func plug(pid: Int32, node number: Int) throws {
        // `unshare -n` makes the namespace a moment after the process starts: a cable moved
        // before that lands in this namespace, where nsenter then cannot find it.
        let ours = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/ns/net")
        let deadline = Date().addingTimeInterval(10)
        while (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/ns/net")) == ours {
            guard Date() < deadline else { throw ToolError("node \(number) (pid \(pid)) has no network namespace of its own after 10 s") }
            usleep(10_000)
        }
        let (outside, inside) = ("rvn\(number)", "rvp\(number)")
        try Self.ip(["link", "add", outside, "type", "veth", "peer", "name", inside])
        plugged.withLock { $0[number] = outside }
        try Self.ip(["link", "set", inside, "netns", "\(pid)"])
        try Self.ip(["link", "set", outside, "master", bridge, "up"])
        try Self.run("nsenter", ["-t", "\(pid)", "-n", "ip", "addr", "add", Self.address(node: number) + "/24", "dev", inside])
        try Self.run("nsenter", ["-t", "\(pid)", "-n", "ip", "link", "set", inside, "up"])
    }

    /// Takes node `number`'s cable out (`up: false`: its packets go nowhere, neither side hears
    /// of it) or puts it back.
    public func setCable(node number: Int, up: Bool) throws {
        guard let name = plugged.withLock({ $0[number] }) else { throw ToolError("node \(number) is not plugged in") }
        try Self.ip(["link", "set", name, up ? "up" : "down"])
    }

    static func ip(_ arguments: [String]) throws { try run("ip", arguments) }

    static func run(_ program: String, _ arguments: [String]) throws {
        let done = try Tool.run(program, arguments)
        guard done.status == 0 else { throw ToolError("\(program) \(arguments.joined(separator: " ")) failed: \(done.standardError)") }
    }
}
