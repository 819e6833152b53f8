import API
import Cluster
import Net
import RoomServer
import Fixture
import Foundation
import HTTP
import Jobs
import Log
import Platform
import Postgres
import Rooms
import Synchronization

/// `revue serve`: the REST API, the webhook dispatcher and a worker in one process.
enum ServeCommand: RevueCommand {
    static let spec = CommandSpec(
        ["serve"],
        summary: "Run the REST API v2, the webhook dispatcher and a worker.",
        discussion: """
            Migrates the database, listens for the API, delivers webhooks and runs jobs until SIGINT or SIGTERM. With
            --no-worker it only serves the API and webhooks; run `revue worker` processes elsewhere. docs/CONFIGURATION.md.
            """,
        options: CommonOptions.database + [
            ServiceSetup.listen, ServiceSetup.storage, ServiceSetup.fixtureRooms, ServiceSetup.publicURL, ServiceSetup.maxJobs, ServiceSetup.maxCPU,
            ServiceSetup.workerID, ServiceSetup.migrations, ServiceSetup.rtcListen, ServiceSetup.rtcAnnounce, ServiceSetup.rtcSetupTimeout,
            ServiceSetup.videoCodecs, ServiceSetup.maxConnectionsPerSource, ServiceSetup.allowDestination, ServiceSetup.noRooms,
            ServiceSetup.nodeID, ServiceSetup.region, ServiceSetup.maxRooms, ServiceSetup.drainTimeout,
            OptionSpec("no-worker", help: "Serve the API and webhooks only.", environment: "REVUE_NO_WORKER"),
        ] + CommonOptions.logging)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let (host, port) = try ServiceSetup.hostAndPort(arguments.value("listen") ?? "127.0.0.1:8080", command: spec.name)
        let maxJobs = try arguments.integer("max-jobs", in: 1...256) ?? 4
        let database = try ServiceSetup.database(arguments)
        defer { database.close() }
        let services = try Services(arguments: arguments, database: database, host: host, port: port, worker: !arguments.flag("no-worker"),
                                    maxJobs: maxJobs)
        StopSignal.install()
        Console.print("revue serve: API on \(services.publicURL) (storage \(services.storage), database: \(database.location))")
        if let rooms = services.rooms {
            Console.print("rooms: signalling at \(services.publicURL)/v2/rtc, WebRTC media on UDP \(rooms.rtc.socket.localAddress) "
                + "(announced as \(rooms.rtc.announcedAddress)), join pages at \(services.publicURL)/join/ROOM?token=TOKEN&name=NAME")
        }
        let drainTimeout = try arguments.integer("drain-timeout", in: 0...86_400) ?? 30
        while !StopSignal.requested && !services.drainRequested { Thread.sleep(forTimeInterval: 0.2) }
        // A node of a cluster drains before it stops: no new rooms, its rooms carry on until
        // they end or the deadline, then they move to other nodes (docs/CLUSTER.md).
        services.drain(until: services.drainDeadline ?? Date().addingTimeInterval(Double(drainTimeout)))
        services.stop()
        return 0
    }
}

/// The running parts of `serve` (and of `demo`): HTTP server, dispatcher and worker threads.
// @unchecked Sendable: `running` guarded by `finished` (an NSCondition); `stopping` is an Atomic; the rest is `let`
final class Services: @unchecked Sendable {
    let api: APIService
    let server: HTTPServer
    let dispatcher: WebhookDispatcher
    let worker: Worker?
    let rooms: RoomServer?
    /// This node's membership of the cluster, when it serves rooms.
    private(set) var heartbeat: NodeHeartbeat?
    /// Set when an operator drained this node (`revue nodes drain`): its deadline.
    let drainOrder: DrainOrder
    var drainRequested: Bool { drainOrder.deadline != nil }
    var drainDeadline: Date? { drainOrder.deadline }
    private let logger = Logger(label: "cluster")
    let storage: String
    let publicURL: String
    let pool: PostgresPool
    private let stopping = Atomic<Bool>(false)
    private let finished = NSCondition()
    private var running = 0

    init(arguments: ParsedArguments, database: DatabaseTarget, host: String, port: Int, worker runWorker: Bool, maxJobs: Int) throws {
        let drainOrder = DrainOrder()
        self.drainOrder = drainOrder
        let home = ServiceSetup.home(arguments)
        storage = URL(fileURLWithPath: arguments.value("storage") ?? home + "/storage").standardizedFileURL.path
        try FileManager.default.createDirectory(atPath: storage, withIntermediateDirectories: true)
        let fixtureRooms = arguments.value("fixture-rooms").map { FixtureRooms(directory: URL(fileURLWithPath: $0).standardizedFileURL.path) }
        pool = PostgresPool(database.connectionString, size: 8)
        let signer = try ServiceSetup.signer(home: home)
        // The server is bound first, so a port of 0 gets its real number into the public URL;
        // requests before the API is ready get 503.
        let handler = HandlerBox()
        var http = HTTPServer.Configuration()
        let perSource = try arguments.integer("max-connections-per-source", in: 0...1_000_000)
        if let perSource { http.maxConnectionsPerSource = perSource }
        server = HTTPServer(configuration: http, handler: { request, connection in handler.handle(request, connection) })
        let boundPort = try server.start(host: host, port: port)
        publicURL = arguments.value("public-url") ?? "http://\(host):\(boundPort)"
        let objectStorage = try ServiceSetup.objectStorage()
        var configuration = APIService.Configuration(authenticator: try ServiceSetup.authenticator(home: home), storage: storage,
                                                     publicURL: publicURL, fixtureRooms: fixtureRooms, objectStorage: objectStorage,
                                                     fileURLLifetime: try ServiceSetup.fileURLLifetime())
        configuration.clientDestinations = try ServiceSetup.clientDestinations(arguments, command: arguments.spec.name)
        api = APIService(configuration: configuration, pool: pool, signer: signer)
        try api.registerFixtureRooms()
        if arguments.flag("no-rooms") || arguments.spec.options.first(where: { $0.name == "rtc-listen" }) == nil {
            rooms = nil
            handler.set(api.handler)
        } else {
            let listen = try ServiceSetup.socketAddress(arguments.value("rtc-listen") ?? "127.0.0.1:0", flag: "rtc-listen", command: "serve")
            let announce = try arguments.value("rtc-announce").map { (text) throws(UsageError) -> IPAddress in
                guard let ip = IPAddress(text) else { throw UsageError("--rtc-announce needs an IP address, not '\(text)'", command: "serve") }
                return ip
            }
            let setupTimeout = try arguments.integer("rtc-setup-timeout", in: 1...300) ?? 20
            let videoCodecs = try ServiceSetup.videoCodecs(arguments, command: "serve")
            // Every `revue serve` with rooms is a node of the cluster (docs/CLUSTER.md), alone or not.
            let clustered = arguments.spec.options.contains { $0.name == "node-id" }
            let nodeID = arguments.value("node-id").flatMap { $0.isEmpty ? nil : $0 } ?? ServiceSetup.defaultNodeID(port: boundPort)
            let nodes = NodeStore(pool: pool)
            let placer = clustered ? RoomPlacer(store: nodes, nodeID: nodeID) : nil
            // Sessions this node left ongoing when it stopped are ended before new ones start
            // (another node's are not this node's to end), and so are its old placements.
            _ = try? SessionStore(pool: pool, nodeID: placer?.nodeID).endAbandonedSessions()
            if let placer { for room in (try? placer.placedHere()) ?? [] { try? placer.release(room) } }
            // Behind a proxy (no per-source limit) the unverified-signalling limit goes too.
            let server = try RoomServer(configuration: .init(rtc: .init(listen: listen, announce: announce, setupTimeout: Double(setupTimeout)),
                                                             apiKey: configuration.authenticator.apiKey, secret: configuration.authenticator.secret,
                                                             publicURL: publicURL, unverifiedSignallingPerSource: perSource == 0 ? 0 : 32,
                                                             placer: placer, videoCodecs: videoCodecs),
                                        pool: pool)
            rooms = server
            server.start()
            if clustered {
                let node = Node(id: nodeID, url: publicURL, rtcAddress: "\(server.rtc.announcedAddress)",
                                region: arguments.value("region") ?? "", cores: ProcessInfo.processInfo.activeProcessorCount,
                                maxRooms: try arguments.integer("max-rooms", in: 1...1_000_000) ?? 1_000)
                let deadNodesSessions = SessionStore(pool: pool)
                let heartbeat = NodeHeartbeat(store: nodes, node: node, load: { [weak server] in server?.nodeLoad() ?? NodeLoad() },
                                              onStateChanged: { row in
                                                  // `revue nodes drain`: this node drains, then exits on its own.
                                                  if row.state == .draining { drainOrder.deadline = row.drainDeadline ?? Date() }
                                              },
                                              onCluster: { [weak server] nodes in
                                                  server?.updateCluster(nodes)
                                                  // A dead node's sessions end here, with their webhooks, before the sweep.
                                                  for dead in nodes where !dead.alive { _ = try? deadNodesSessions.endSessions(ofNode: dead.id) }
                                              })
                try heartbeat.start()
                self.heartbeat = heartbeat
            }
            api.attach(liveRooms: server)
            server.attach(jobs: api)
            let apiHandler = api.handler
            handler.set { request, connection in server.route(request) ?? apiHandler(request, connection) }
        }
        dispatcher = WebhookDispatcher(pool: pool, signer: signer,
                                       caFile: ProcessInfo.processInfo.environment["REVUE_WEBHOOK_CA_FILE"].flatMap { $0.isEmpty ? nil : $0 })
        var workerConfiguration = Worker.Configuration(
            workerID: arguments.value("worker-id") ?? ServiceSetup.defaultWorkerID(), maxJobs: maxJobs, storage: storage,
            fixtureRooms: fixtureRooms, executable: ServiceSetup.executable, objectStorage: objectStorage)
        workerConfiguration.summaryEndpoint = try ServiceSetup.summaryEndpoint()
        if let cores = try ServiceSetup.maxCPU(arguments) { workerConfiguration.maxCPU = cores }
        if rooms != nil { workerConfiguration.liveRooms = ServiceSetup.liveRoomAccess(publicURL: publicURL, authenticator: configuration.authenticator) }
        worker = runWorker ? Worker(store: api.store, configuration: workerConfiguration) : nil
        startThread("webhooks") { [self] in dispatcher.run(shouldStop: { [self] in stopping.load(ordering: .relaxed) }) }
        if let worker { startThread("worker") { [self] in worker.run(shouldStop: { [self] in stopping.load(ordering: .relaxed) }) } }
        // The allocator keeps what a burst freed (MemoryTuning sets a high trim threshold for
        // media work): a long-lived server hands it back every 10 s, so memory a flood of
        // connections took returns once they are gone.
        startThread("memory") { [self] in
            var ticks = 0
            while !stopping.load(ordering: .relaxed) {
                Thread.sleep(forTimeInterval: 0.5)
                ticks += 1
                if ticks % 20 == 0 { MemoryTuning.releaseFreeMemory() }
            }
        }
    }

    private func startThread(_ name: String, _ body: @escaping @Sendable () -> Void) {
        finished.lock()
        running += 1
        finished.unlock()
        let thread = Thread { [self] in
            body()
            finished.lock()
            running -= 1
            finished.broadcast()
            finished.unlock()
        }
        thread.name = name
        thread.start()
    }

    /// Drains this node of the cluster: DRAINING (no room is placed here from now on), its rooms
    /// carry on until they end or `deadline` (a second SIGTERM cuts it short), then the ones
    /// left are moved to other nodes with everyone in them. Nothing to do without rooms.
    func drain(until deadline: Date) {
        guard let heartbeat, let rooms else { return }
        let node = heartbeat.node.id
        do {
            try heartbeat.store.drain(node, deadline: deadline)
        } catch {
            logger.error("could not mark the node DRAINING", ["nodeId": .string(node), "error": .string(error.description)])
        }
        logger.info("draining", ["nodeId": .string(node), "rooms": .of(rooms.nodeLoad().rooms),
                                 "seconds": .double(max(0, deadline.timeIntervalSinceNow).rounded())])
        // A second SIGTERM or SIGINT exits at once (StopSignal).
        while rooms.nodeLoad().rooms > 0 && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.2)
        }
        let moves = rooms.moveRooms()
        if !moves.isEmpty {
            logger.info("moved this node's rooms", ["nodeId": .string(node), "rooms": .of(moves.count),
                                                   "to": .string(moves.map { "\($0.room)→\($0.to ?? "-")" }.joined(separator: ","))])
            // Their redirects and closes go out before the server stops.
            Thread.sleep(forTimeInterval: 0.5)
        }
    }

    /// Stops accepting requests, lets the worker hand its jobs back, stops the dispatcher.
    func stop() {
        server.stop()
        rooms?.stop()
        // Leaves the cluster: its row and its rooms' placements go (they are placed again on
        // a live node when their participants come back).
        heartbeat?.stop()
        if let node = heartbeat?.node {
            _ = try? SessionStore(pool: pool, nodeID: node.id).endAbandonedSessions()
            try? heartbeat?.store.remove(node.id)
        }
        stopping.store(true, ordering: .relaxed)
        // Wake the worker from its wait for work, so it starts handing back at once.
        try? pool.with { try $0.notify(JobStore.jobsChannel, payload: "shutdown") }
        finished.lock()
        while running > 0 { _ = finished.wait(until: Date().addingTimeInterval(1)) }
        finished.unlock()
    }
}

/// The HTTP handler, set once the API service exists.
// @unchecked Sendable: mutable state (`current`, the HTTP handler) guarded by `lock`
final class HandlerBox: @unchecked Sendable {
    private let lock = NSLock()
    private var current: HTTPHandler?

    func set(_ handler: @escaping HTTPHandler) {
        lock.lock()
        current = handler
        lock.unlock()
    }

    func handle(_ request: HTTPRequest, _ connection: HTTPConnection) -> HTTPResult {
        lock.lock()
        let handler = current
        lock.unlock()
        return handler?(request, connection) ?? .response(.text(503, "starting"))
    }
}

/// When an operator asked this node to drain (`revue nodes drain`), seen by its heartbeat.
final class DrainOrder: Sendable {
    private let value = Mutex<Date?>(nil)

    var deadline: Date? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
