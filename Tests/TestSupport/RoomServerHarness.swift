import API
import APIModels
import Crypto
import Foundation
import HTTP
import JobSpec
import Jobs
import Media
import Net
import Platform
import Postgres
import Rooms
import Synchronization
import RoomServer
import Transport

/// The room server as `revue serve` runs it, in this process: the REST API and the room server on
/// one HTTP port, WebRTC media on one UDP port, a fresh database. Tests make rooms and tokens
/// with it, and open the join page in browsers.
public final class RoomServerHarness: @unchecked Sendable {
    public let auth = Authenticator(apiKey: "room-key", secret: "room-secret")
    public let databaseURL: String
    public let pool: PostgresPool
    public let api: APIService
    public let rooms: RoomServer
    public let http: HTTPServer
    public let port: Int
    public let storage: TemporaryDirectory
    public var base: String { "http://127.0.0.1:\(port)" }
    /// The port the room server's WebRTC media socket bound.
    public var rtcPort: UInt16 { rooms.rtc.socket.localAddress.port }

    /// `httpConfiguration`: the API server's limits (a benchmark of many viewers from one
    /// address turns the per-source limit off); `videoCodecs`: what publishers may send
    /// (`revue serve --video-codecs`).
    public init(rtcPort: UInt16 = 0, announcePort: UInt16? = nil, consentTimeout: Double = 30,
                httpConfiguration: HTTPServer.Configuration = HTTPServer.Configuration(), videoCodecs: [TrackCodec] = [.vp8, .h264]) throws
    {
        try LoopbackNamespace.require()
        storage = try TemporaryDirectory(prefix: "rooms-storage")
        databaseURL = try JobDatabase.make()
        pool = PostgresPool(databaseURL, size: 6)
        let holder = Holder()
        http = HTTPServer(configuration: httpConfiguration) { request, connection in holder.handle(request, connection) }
        port = try http.start(host: "127.0.0.1", port: 0)
        var configuration = APIService.Configuration(authenticator: auth, storage: storage.path, publicURL: "http://127.0.0.1:\(port)",
                                                     fixtureRooms: nil)
        // Participants of the tests' rooms may send jobs to the tests' own receivers and RTMP
        // servers, and name the seeds' example webhook (which nothing here can reach).
        configuration.clientDestinations = try DestinationAllowList(["http://127.0.0.1:*", "rtmp://127.0.0.1:*",
                                                                     "https://webhook.your-api-server.com"])
        api = APIService(configuration: configuration, pool: pool, signer: try RSAKeyPair.generate())
        rooms = try RoomServer(configuration: .init(rtc: .init(listen: SocketAddress(ip: .loopbackV4, port: rtcPort), announcePort: announcePort,
                                                                                   consentTimeout: consentTimeout), apiKey: auth.apiKey,
                                                    secret: auth.secret, publicURL: "http://127.0.0.1:\(port)", videoCodecs: videoCodecs),
                               pool: pool)
        rooms.start()
        api.attach(liveRooms: rooms)
        rooms.attach(jobs: api)
        holder.rooms = rooms
        holder.api = api
    }

    deinit {
        workerStop.stopped.store(true, ordering: .relaxed)
        workerThread?.cancel()
        http.stop()
        rooms.stop()
    }

    /// Set once to stop the worker; a class so the worker's thread can hold it.
    public final class StopFlag: Sendable {
        public let stopped = Atomic<Bool>(false)
    }
    private let workerStop = StopFlag()
    private var workerThread: Thread?
    private let workerFinished = DispatchSemaphore(value: 0)
    public private(set) var worker: Worker?

    /// A worker in this process (its jobs run as `revue record` children), recording live rooms
    /// through this server's signalling (or a proxy in front of it at `signalingPort`), writing
    /// summaries through `summaries` when given; `executable` runs the jobs in place of `revue`.
    public func startWorker(signalingPort: Int? = nil, childEnvironment: [String: String] = [:], summaries: SummaryEndpoint? = nil,
                            executable: String = RevueBinary.path)
    {
        var configuration = Worker.Configuration(workerID: "harness-worker", maxJobs: 4, storage: storage.path, fixtureRooms: nil,
                                                 executable: executable)
        configuration.childEnvironment = childEnvironment
        configuration.summaryEndpoint = summaries
        let auth = self.auth
        configuration.liveRooms = Worker.Configuration.LiveRoomAccess(signalingURL: "ws://127.0.0.1:\(signalingPort ?? port)/v2/rtc", token: { room, participant in
            try auth.token(roles: [.rtc], permissions: [.allowJoin], roomID: room, participantID: participant, expiresIn: 86_400, recorder: true)
        })
        let worker = Worker(store: api.store, configuration: configuration)
        self.worker = worker
        let stop = workerStop
        let finished = workerFinished
        let thread = Thread {
            worker.run(shouldStop: { stop.stopped.load(ordering: .relaxed) })
            finished.signal()
        }
        workerThread = thread
        thread.start()
    }

    /// Delivers the webhooks queued in the database, as `revue serve` does, until the harness
    /// goes away.
    public func startWebhooks() throws {
        let dispatcher = WebhookDispatcher(pool: pool, signer: try RSAKeyPair.generate(), timeout: 5)
        let stop = workerStop
        Thread { dispatcher.run(shouldStop: { stop.stopped.load(ordering: .relaxed) }) }.start()
    }

    /// Stops the worker and waits for it: it hands its jobs back after their children finish.
    public func stopWorker() {
        guard workerThread != nil else { return }
        workerStop.stopped.store(true, ordering: .relaxed)
        _ = workerFinished.wait(timeout: .now() + 60)
        workerThread = nil
    }

    /// A `revue worker` process on this server's database and storage, joining live rooms at
    /// this server's URL with recorder tokens signed with its secret: a worker that can be killed.
    public func startWorkerProcess(_ id: String, log: String) throws -> Subprocess {
        var environment = ProcessInfo.processInfo.environment
        environment["REVUE_API_KEY"] = auth.apiKey
        environment["REVUE_API_SECRET"] = auth.secret
        environment["DATABASE_URL"] = databaseURL
        environment["REVUE_STORAGE"] = storage.path
        environment["REVUE_HOME"] = storage.file("home-\(id)")
        environment["REVUE_LOG_FORMAT"] = "json"
        environment["REVUE_PUBLIC_URL"] = base
        return try Subprocess(RevueBinary.path, ["worker", "--worker-id", id, "--max-jobs", "2"], environment: environment,
                              standardOutput: .file(log), standardError: .file(log))
    }

    public final class Holder: @unchecked Sendable {
        public var rooms: RoomServer?
        public var api: APIService?
        public func handle(_ request: HTTPRequest, _ connection: HTTPConnection) -> HTTPResult {
            guard let rooms, let api else { return .response(.text(503, "starting")) }
            return rooms.route(request) ?? api.handler(request, connection)
        }
    }

    /// A new room; its id.
    public func makeRoom(customRoomID: String? = nil) throws -> String {
        try RoomStore(pool: pool).create(RoomRequest(customRoomID: customRoomID)).id
    }

    /// A token for joining (role rtc).
    public func token(permissions: [TokenClaims.Permission] = [.allowJoin], roomID: String? = nil, participantID: String? = nil,
               expiresIn: Double = 3600) throws -> String
    {
        try auth.token(roles: [.rtc], permissions: permissions, roomID: roomID, participantID: participantID, expiresIn: expiresIn)
    }

    /// A REST call with a crawler token; the status and the JSON answer.
    public func call(_ method: String, _ path: String, _ body: JSONValue? = nil) throws -> (status: Int, json: JSONValue) {
        let response = try TCP.http(method, base + path, body: body.map { APIJSON.encode($0) } ?? [],
                                    headers: ["Authorization": try auth.token(), "Content-Type": "application/json"])
        return (response.status, (try? JSONValue(parsing: response.body)) ?? .null)
    }

    /// The join page URL for a room.
    public func joinURL(room: String, token: String, name: String, mode: String? = nil) -> String {
        var url = "\(base)/join/\(room)?token=\(token)&name=\(name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name)"
        if let mode { url += "&mode=\(mode)" }
        return url
    }
}

/// A camera and a microphone Chromium can be given (--use-file-for-fake-*): a y4m of one colour
/// with a moving white square, and a wav of one tone, made with ffmpeg.
public struct FakeMedia {
    public let video: String
    public let audio: String

    public init(colour: String, tone: Int, in directory: TemporaryDirectory, name: String) throws {
        video = directory.file("\(name).y4m")
        audio = directory.file("\(name).wav")
        let picture = try Tool.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i",
                                              "color=c=\(colour):s=640x360:r=30,drawbox=x='mod(t*120,560)':y=140:w=80:h=80:color=white:t=fill",
                                              "-t", "4", "-pix_fmt", "yuv420p", video])
        guard picture.status == 0 else { throw ToolError("ffmpeg y4m: \(picture.standardError)") }
        let sound = try Tool.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=\(tone):sample_rate=48000", "-t", "8",
                                            "-ac", "1", audio])
        guard sound.status == 0 else { throw ToolError("ffmpeg wav: \(sound.standardError)") }
    }
}
