/// The claims of a platform token (`../shared/spec/PLATFORM_API.md`, docs/API.md): a JWT signed
/// HS256 with the API secret. The API checks them for REST calls, the room server at join.
public struct TokenClaims: Sendable, Codable, Equatable {
    /// `permissions`: what the holder may do in a room.
    public enum Permission: String, APIEnum {
        /// Joins at once.
        case allowJoin = "allow_join"
        /// Waits to be admitted by someone holding `allow_join`.
        case askJoin = "ask_join"
        /// May switch others' mic and camera, and remove them.
        case allowMod = "allow_mod"
    }

    /// `roles`: what the token is for.
    public enum Role: String, APIEnum {
        /// The REST API; cannot join.
        case crawler
        /// Joins rooms; no REST.
        case rtc
    }

    public var apikey: String
    public var permissions: [Permission]?
    public var version: Int?
    /// Limits the token to one room.
    public var roomId: String?
    /// Limits the token to one participant id.
    public var participantId: String?
    public var roles: [Role]?
    public var iat: Double?
    /// Expiry, seconds since 1970.
    public var exp: Double?
    /// Revue's own claim: the holder is a recorder, which joins hidden from the others (only the
    /// server and its workers, which hold the secret, can mint it).
    public var recorder: Bool?

    public init(apikey: String, permissions: [Permission]? = nil, version: Int? = 2, roomId: String? = nil, participantId: String? = nil,
                roles: [Role]? = nil, iat: Double? = nil, exp: Double? = nil)
    {
        self.apikey = apikey
        self.permissions = permissions
        self.version = version
        self.roomId = roomId
        self.participantId = participantId
        self.roles = roles
        self.iat = iat
        self.exp = exp
    }

    /// Why a payload is not a token's claims, by the platform's error family.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// 4001
        case apiKey(String)
        /// 4002
        case token(String)
        /// 4008
        case permissions(String)
        /// 4024
        case role(String)

        public var description: String {
            switch self {
            case .apiKey(let why), .token(let why), .permissions(let why), .role(let why): why
            }
        }
    }

    /// Reads verified claims from a token's payload. Types are checked field by field so each
    /// problem gets its code: an unknown role is 4024, an unknown permission 4008.
    public init(validating payload: [UInt8]) throws(Problem) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: payload)
        } catch {
            throw .token("the token's payload is not JSON")
        }
        guard value.objectValue != nil else { throw .token("the token's payload is not a JSON object") }
        guard let key = value["apikey"]?.stringValue else { throw .apiKey("the token has no apikey") }
        self.init(apikey: key, version: nil)
        func number(_ name: String) throws(Problem) -> Double? {
            guard let field = value[name], !field.isNull else { return nil }
            guard let number = field.numberValue else { throw .token("\(name) is not a number") }
            return number
        }
        func text(_ name: String) throws(Problem) -> String? {
            guard let field = value[name], !field.isNull else { return nil }
            guard let text = field.stringValue else { throw .token("\(name) is not a string") }
            return text
        }
        exp = try number("exp")
        iat = try number("iat")
        version = try number("version").map { Int($0) }
        roomId = try text("roomId")
        if let field = value["recorder"], !field.isNull {
            guard let flag = field.boolValue else { throw .token("recorder is not true or false") }
            recorder = flag
        }
        participantId = try text("participantId")
        if let list = value["roles"], !list.isNull {
            guard let items = list.arrayValue else { throw .role("roles is not a list") }
            var roles: [Role] = []
            for item in items {
                guard let name = item.stringValue, let role = Role(rawValue: name) else {
                    throw .role("unknown role \(item.stringValue.map { "\"\($0)\"" } ?? item.text)")
                }
                roles.append(role)
            }
            self.roles = roles
        }
        if let list = value["permissions"], !list.isNull {
            guard let items = list.arrayValue else { throw .permissions("permissions is not a list") }
            var permissions: [Permission] = []
            for item in items {
                guard let name = item.stringValue, let permission = Permission(rawValue: name) else {
                    throw .permissions("unknown permission \(item.stringValue.map { "\"\($0)\"" } ?? item.text)")
                }
                permissions.append(permission)
            }
            self.permissions = permissions
        }
    }
}
