import Cluster
import Foundation
import Postgres

/// `revue nodes`: the cluster's room servers, live and dead, with their load (docs/CLUSTER.md).
enum NodesListCommand: RevueCommand {
    static let spec = CommandSpec(
        ["nodes"], summary: "List the cluster's nodes (every revue serve): state, addresses, region and load.",
        discussion: "A node is DEAD when its heartbeat (every 2 s) is older than 10 s. `revue nodes drain ID` drains one.",
        options: CommonOptions.database + CommonOptions.logging)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let database = try ServiceSetup.database(arguments)
        defer { database.close() }
        let nodes = try NodeStore(pool: PostgresPool(database.connectionString, size: 1)).nodes()
        for line in NodeTable.lines(nodes, now: Date()) { Console.print(line) }
        return 0
    }
}

/// `revue nodes drain ID`: no new rooms go to the node; its rooms carry on until they end or the
/// deadline, then move to other nodes with everyone in them; then the node exits.
enum NodesDrainCommand: RevueCommand {
    static let spec = CommandSpec(
        ["nodes", "drain"], summary: "Drain a node: it takes no new rooms, moves its rooms to other nodes by the deadline, then exits.",
        options: CommonOptions.database + [
            OptionSpec("deadline", value: "SECONDS", help: "How long its rooms may carry on before they are moved.", default: "30"),
        ] + CommonOptions.logging,
        positionals: [PositionalSpec("ID", help: "The node's id (revue nodes lists them).")])

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        guard let id = arguments.positional(0) else { throw UsageError("ID is required", command: spec.name) }
        let seconds = try arguments.integer("deadline", in: 0...86_400) ?? 30
        let database = try ServiceSetup.database(arguments)
        defer { database.close() }
        let store = NodeStore(pool: PostgresPool(database.connectionString, size: 1))
        let result = Result { () throws(ClusterError) in try store.drain(id, deadline: Date().addingTimeInterval(Double(seconds))) }
        if case .failure(let error) = result {
            Console.error(error.kind == .unknownNode ? "error: no node \(id) (revue nodes lists them)" : "error: \(error)")
            return 1
        }
        Console.print("node \(id) is DRAINING: no new rooms; its rooms move within \(seconds) s, then it exits")
        return 0
    }
}

/// The text of `revue nodes` (pure, so tests read it).
enum NodeTable {
    static let header = "NODE                  STATE     URL                          RTC                    REGION   CORES  ROOMS  IN   TRACKS  CPU   HEARTBEAT"

    static func lines(_ nodes: [Node], now: Date) -> [String] {
        [header] + nodes.map { row($0, now: now) } + ["\(nodes.filter(\.alive).count) live of \(nodes.count) nodes"]
    }

    static func row(_ node: Node, now: Date) -> String {
        let state = node.alive ? node.state.rawValue : "DEAD"
        let age = String(format: "%.0fs ago", max(0, now.timeIntervalSince(node.heartbeatAt)))
        return [pad(node.id, 21), pad(state, 9), pad(node.url, 28), pad(node.rtcAddress, 22), pad(node.region.isEmpty ? "-" : node.region, 8),
                pad("\(node.cores)", 6), pad("\(node.placedRooms)/\(node.maxRooms)", 6), pad("\(node.load.participants)", 4),
                pad("\(node.load.tracks)", 7), pad(String(format: "%.2f", node.load.cpu), 5), age].joined(separator: " ")
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
