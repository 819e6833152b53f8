import API
import APIModels
import Crypto
import Foundation
import HTTP
import Jobs
import JobSpec
import Net
import Postgres
import Rooms
import RoomServer
import TestSupport

/// The room server as `revue serve` runs it (REST API and signalling on one HTTP port, WebRTC
/// media on one UDP port, a fresh database), inside the benchmark's process, as the room tests'
/// harness has it: bench/live-record puts publishers in one of its rooms and records it.
final class BenchRoomServer: @unchecked Sendable {
    let auth = Authenticator(apiKey: "bench-key", secret: "bench-secret")
    let pool: PostgresPool
    let api: APIService
    let rooms: RoomServer
    let http: HTTPServer
    let port: Int
    var signalingURL: String { "ws://127.0.0.1:\(port)/v2/rtc" }

    init(storage: String) throws {
        try FileManager.default.createDirectory(atPath: storage, withIntermediateDirectories: true)
        pool = PostgresPool(try JobDatabase.make(), size: 4)
        let holder = Holder()
        http = HTTPServer { request, connection in holder.handle(request, connection) }
        port = try http.start(host: "127.0.0.1", port: 0)
        api = APIService(configuration: .init(authenticator: auth, storage: storage, publicURL: "http://127.0.0.1:\(port)", fixtureRooms: nil),
                         pool: pool, signer: try RSAKeyPair.generate())
        rooms = try RoomServer(configuration: .init(rtc: .init(listen: SocketAddress(ip: .loopbackV4, port: 0)), apiKey: auth.apiKey,
                                                    secret: auth.secret, publicURL: "http://127.0.0.1:\(port)"), pool: pool)
        rooms.start()
        api.attach(liveRooms: rooms)
        rooms.attach(jobs: api)
        holder.rooms = rooms
        holder.api = api
    }

    func stop() {
        http.stop()
        rooms.stop()
    }

    /// A new room; its id.
    func makeRoom() throws -> String {
        try RoomStore(pool: pool).create(RoomRequest()).id
    }

    /// A participant's token for the room.
    func token(roomID: String) throws -> String {
        try auth.token(roles: [.rtc], permissions: [.allowJoin], roomID: roomID)
    }

    /// Routes a request to the room server, else the API, once both exist.
    final class Holder: @unchecked Sendable {
        var rooms: RoomServer?
        var api: APIService?
        func handle(_ request: HTTPRequest, _ connection: HTTPConnection) -> HTTPResult {
            guard let rooms, let api else { return .response(.text(503, "starting")) }
            return rooms.route(request) ?? api.handler(request, connection)
        }
    }
}
