import API
import Foundation
import JobSpec
import Platform
import Postgres

/// `revue serve` as a user runs it, a process of its own on a fresh database: the tests that
/// attack it see what a crash or a freeze does to the whole server, and read its memory and CPU
/// from /proc. API, signalling and join pages on one TCP port of 127.0.0.1, media on one UDP port.
public final class RevueServe: @unchecked Sendable {
    public let auth = Authenticator(apiKey: "serve-key", secret: "serve-secret")
    public let process: Subprocess
    public let port: Int
    /// The UDP port of WebRTC media, as the server printed it.
    public let rtcPort: UInt16
    public let root: TemporaryDirectory
    public let databaseURL: String
    /// The loopback address it listens on (127.0.0.1, or another of 127/8 for the nodes of a
    /// cluster on one machine).
    public let host: String
    public var base: String { "http://\(host):\(port)" }
    public var signalingURL: String { "ws://\(host):\(port)/v2/rtc" }
    public var log: String { (try? String(contentsOfFile: root.file("serve.log"), encoding: .utf8)) ?? "" }

    /// Where a node of a `ClusterNetwork` runs: which network, and which node it is there.
    public struct Seat: Sendable {
        public let network: ClusterNetwork
        public let node: Int
        /// A seat no node had before.
        public init(on network: ClusterNetwork) throws {
            self.network = network
            node = try network.seat()
        }
    }

    /// The node's seat on a `ClusterNetwork`, if it has one.
    public let seat: Seat?

    /// Starts it and waits until `/healthz` answers. `arguments` are added to `serve`'s. Nodes
    /// of one cluster share `databaseURL` (nil: a fresh database) and each listen on a `host` of
    /// their own, or sit in a network namespace of their own (`seat`: then `host` is the node's
    /// address there, and `databaseURL` must be the one the network's proxy reaches). `worker`
    /// runs a job worker in it too.
    public init(arguments: [String] = [], environment extra: [String: String] = [:], host: String = "127.0.0.1", databaseURL: String? = nil,
                seat: Seat? = nil, worker: Bool = false) throws
    {
        try LoopbackNamespace.require()
        let host = seat.map { ClusterNetwork.address(node: $0.node) } ?? host
        self.host = host
        self.seat = seat
        self.databaseURL = try databaseURL ?? JobDatabase.make()
        root = try TemporaryDirectory(prefix: "serve")
        port = try PostgresCluster.freeLoopbackPort()
        var environment = ProcessInfo.processInfo.environment
        environment["REVUE_API_KEY"] = auth.apiKey
        environment["REVUE_API_SECRET"] = auth.secret
        environment["DATABASE_URL"] = self.databaseURL
        environment["REVUE_HOME"] = root.file("home")
        environment["REVUE_STORAGE"] = root.file("storage")
        environment["REVUE_LOG_FORMAT"] = "json"
        // A test's server stops at once: rooms still live move (or end) without waiting.
        environment["REVUE_DRAIN_TIMEOUT"] = "0"
        environment.merge(extra) { $1 }
        let command = [RevueBinary.path, "serve"] + (worker ? [] : ["--no-worker"]) + ["--listen", "\(host):\(port)", "--rtc-listen", "\(host):0"]
            + arguments
        let launcher = seat.map { $0.network.launcher(node: $0.node) } ?? []
        process = try Subprocess((launcher + command)[0], Array((launcher + command).dropFirst()),
                                 environment: environment, standardOutput: .file(root.file("serve.log")),
                                 standardError: .file(root.file("serve.log")))
        if let seat {
            do {
                try seat.network.plug(pid: process.pid, node: seat.node)
            } catch {
                process.signal(SIGKILL)
                _ = process.wait()
                throw error
            }
        }
        var found: UInt16?
        for _ in 0..<300 {
            if process.poll() != nil { break }
            if (try? TCP.http("GET", "http://\(host):\(port)/healthz", timeout: 1))?.status == 200,
               let line = (try? String(contentsOfFile: root.file("serve.log"), encoding: .utf8))?.split(separator: "\n")
                .first(where: { $0.contains("WebRTC media on UDP") }),
               let address = line.split(separator: " ").first(where: { $0.hasPrefix("\(host):") }),
               let rtc = UInt16(address.dropFirst("\(host):".count))
            {
                found = rtc
                break
            }
            usleep(100_000)
        }
        guard let found else {
            process.signal(SIGKILL)
            _ = process.wait()
            throw ToolError("revue serve did not start: \((try? String(contentsOfFile: root.file("serve.log"), encoding: .utf8))?.suffix(1500) ?? "")")
        }
        rtcPort = found
    }

    deinit {
        process.signal(SIGTERM)
        if process.wait(timeout: 15) == nil {
            process.signal(SIGKILL)
            _ = process.wait()
        }
    }

    /// Running, and answering `/healthz` within `timeout`.
    public func isAlive(timeout: Double = 5) -> Bool {
        process.poll() == nil && (try? TCP.http("GET", base + "/healthz", timeout: timeout))?.status == 200
    }

    /// How it ended, if it did (a signal is a crash).
    public var termination: Subprocess.Termination? { process.poll() }

    public var usage: ProcessUsage? { ProcessUsage.of(process.pid) }

    /// A token for the REST API (role crawler).
    public func apiToken(roomID: String? = nil) throws -> String { try auth.token(roomID: roomID) }

    /// A token for joining rooms (role rtc).
    public func token(permissions: [TokenClaims.Permission] = [.allowJoin], roomID: String? = nil, participantID: String? = nil) throws -> String {
        try auth.token(roles: [.rtc], permissions: permissions, roomID: roomID, participantID: participantID)
    }

    /// A REST call with a crawler token.
    public func call(_ method: String, _ path: String, body: [UInt8] = [], token: String? = nil, headers extra: [String: String] = [:],
                     timeout: Double = 30) throws -> (status: Int, json: JSONValue?)
    {
        let headers = ["Authorization": try token ?? apiToken(), "Content-Type": "application/json"].merging(extra) { $1 }
        let response = try TCP.http(method, base + path, body: body, headers: headers, timeout: timeout)
        return (response.status, try? JSONValue(parsing: response.body))
    }

    /// A sample from `/metrics` (0 when the line is not there).
    public func metric(_ name: String) throws -> Double {
        let text = String(decoding: try TCP.http("GET", base + "/metrics", timeout: 30).body, as: UTF8.self)
        return text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) } ?? 0
    }

    /// The join page of `room` on this node.
    public func joinURL(room: String, token: String, name: String, mode: String? = nil) -> String {
        var url = "\(base)/join/\(room)?token=\(token)&name=\(name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name)"
        if let mode { url += "&mode=\(mode)" }
        return url
    }

    /// An aiortc WHIP publisher (`Tests/Peers/whip_publish.py`) posting to this node, of one
    /// colour (`RRGGBB`) and tone, joined as `name`; its output goes to `log`.
    public func whipPublisher(room: String, name: String, colour: String, tone: Int, log: String) throws -> Subprocess {
        let query = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name
        return try Subprocess(try TestPeers.python(), [TestPeers.script("whip_publish.py"), "\(base)/v2/rooms/\(room)/whip?name=\(query)", try token(),
                                                       "--color", colour, "--tone", "\(tone)", "--seconds", "120"],
                              standardOutput: .file(log), standardError: .file(log))
    }

    /// A new room, made through the REST API.
    public func makeRoom() throws -> String {
        let made = try call("POST", "/v2/rooms", body: Array("{}".utf8))
        guard made.status == 200, let id = made.json?["roomId"]?.stringValue else { throw ToolError("POST /v2/rooms answered \(made)") }
        return id
    }
}
