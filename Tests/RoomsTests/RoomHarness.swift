import JobSpec
import Rooms
import Signaling

/// Drives a registry the way the room server does: one call, then its actions carried out at
/// once (broadcasts to the members as they are after the call), recorded per connection.
struct RoomHarness {
    var registry: RoomRegistry
    var room = RoomSettings(id: "room-1", customRoomID: "standup")
    var now: Double = 1_800_000_000
    private var lastConnection: UInt64 = 0
    /// Every connection's frames so far, in order.
    var inbox: [ConnectionID: [ServerEnvelope]] = [:]
    var closed: [ConnectionID: UInt16] = [:]
    /// The last call's actions.
    var last: [RoomAction] = []

    init(_ configuration: RoomRegistry.Configuration = .init()) {
        final class Counter: @unchecked Sendable { var value = 0 }
        let counter = Counter()
        registry = RoomRegistry(configuration: configuration) { kind in
            counter.value += 1
            return kind == .session ? "session-\(counter.value)" : "p\(counter.value)"
        }
    }

    static func claims(_ permissions: [TokenClaims.Permission] = [.allowJoin], roomID: String? = nil, participantID: String? = nil,
                       roles: [TokenClaims.Role]? = nil) -> TokenClaims
    {
        TokenClaims(apikey: "key", permissions: permissions, roomId: roomID, participantId: participantID, roles: roles)
    }

    mutating func newConnection() -> ConnectionID {
        lastConnection += 1
        return ConnectionID(lastConnection)
    }

    /// Joins on a new connection and returns it.
    @discardableResult
    mutating func join(_ participantID: String?, _ permissions: [TokenClaims.Permission] = [.allowJoin], mode: ParticipantMode = .sendAndReceive,
                       name: String = "", id: RequestID? = .number(1), claims: TokenClaims? = nil,
                       token: Result<TokenClaims, SignalingError>? = nil, room: RoomSettings?? = .none, resumeKey: String? = nil) -> ConnectionID
    {
        let connection = newConnection()
        let request = JoinRequest(token: "t", roomID: "room-1", name: name.isEmpty ? (participantID ?? "") : name, participantID: participantID,
                                  mode: mode, resumeKey: resumeKey)
        let settings: RoomSettings? = room ?? self.room
        let result = token ?? .success(claims ?? Self.claims(permissions))
        carry(registry.join(connection: connection, request: request, requestID: id, claims: result, room: settings, now: now))
        return connection
    }

    mutating func send(_ message: ClientMessage, from connection: ConnectionID, id: RequestID? = .string("r")) {
        carry(registry.receive(ClientEnvelope(message, id: id), from: connection, now: now))
    }

    mutating func carry(_ actions: [RoomAction]) {
        last = actions
        for action in actions {
            switch action {
            case .send(let connection, let envelope): inbox[connection, default: []].append(envelope)
            case .broadcast(let roomID, let envelope, let except):
                for connection in registry.connections(roomID: roomID) where connection != except {
                    inbox[connection, default: []].append(envelope)
                }
            case .close(let connection, let code, _): closed[connection] = code
            case .media, .persist, .webhook, .job, .translate: break
            }
        }
    }

    /// What `connection` got from the last call, then forgets it.
    mutating func take(_ connection: ConnectionID) -> [ServerMessage] {
        defer { inbox[connection] = [] }
        return (inbox[connection] ?? []).map(\.message)
    }

    /// The frames `connection` got from the last call, with their ids.
    mutating func takeFrames(_ connection: ConnectionID) -> [ServerEnvelope] {
        defer { inbox[connection] = [] }
        return inbox[connection] ?? []
    }

    mutating func clear() { inbox = [:] }

    var media: [MediaCommand] { last.compactMap { if case .media(let command) = $0 { command } else { nil } } }
    var persisted: [PersistCommand] { last.compactMap { if case .persist(let command) = $0 { command } else { nil } } }
    var webhooks: [RoomWebhookEvent] { last.compactMap { if case .webhook(let event) = $0 { event } else { nil } } }
    var webhookNames: [String] { webhooks.map(\.name) }

    /// The error code of the last reply to `connection`, if it was an error.
    mutating func errorCode(_ connection: ConnectionID) -> Int? {
        for message in take(connection).reversed() {
            if case .error(let code, _) = message { return code.code }
        }
        return nil
    }
}
