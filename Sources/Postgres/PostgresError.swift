/// An error from PostgreSQL or from talking to it.
///
/// `description` is safe to show a user: it names what failed, the SQLSTATE and the server's
/// message. `debugDescription` adds the statement and the server's detail and hint.
public struct PostgresError: Error, Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// What kind of failure this is. New kinds may be added, so switch with a default.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case connectionFailed = "could not connect to PostgreSQL"
            case connectionLost = "lost the connection to PostgreSQL"
            case statementFailed = "statement failed"
            case decodingFailed = "could not decode a result value"
            case clusterFailed = "could not run the PostgreSQL server"
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The server could not be reached, refused us, or rejected our credentials.
        public static let connectionFailed = Kind(.connectionFailed)
        /// The connection broke while a statement was running.
        public static let connectionLost = Kind(.connectionLost)
        /// The server rejected a statement; `sqlState` says why.
        public static let statementFailed = Kind(.statementFailed)
        /// A value in a result did not have the type the caller asked for.
        public static let decodingFailed = Kind(.decodingFailed)
        /// initdb, pg_ctl or the server process failed.
        public static let clusterFailed = Kind(.clusterFailed)

        public var description: String { base.rawValue }
    }

    public let kind: Kind
    /// The five-character SQLSTATE, for example `23505` for a unique violation.
    public let sqlState: String?
    /// The server's primary message, or ours when the server sent none.
    public let message: String
    public let detail: String?
    public let hint: String?
    /// The statement that failed, for `debugDescription` only: it may be long.
    public let statement: String?

    public init(kind: Kind, sqlState: String? = nil, message: String, detail: String? = nil, hint: String? = nil,
                statement: String? = nil)
    {
        self.kind = kind
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
        self.hint = hint
        self.statement = statement
    }

    public var description: String {
        if let sqlState {
            return "\(kind) [SQLSTATE \(sqlState)]: \(message)"
        }
        return "\(kind): \(message)"
    }

    public var debugDescription: String {
        var text = description
        if let detail { text += "\nDETAIL: \(detail)" }
        if let hint { text += "\nHINT: \(hint)" }
        if let statement { text += "\nSTATEMENT: \(statement)" }
        return text
    }

    /// SQLSTATE 23505: a unique constraint or index refused a row.
    public var isUniqueViolation: Bool { sqlState == "23505" }
    /// SQLSTATE class 08: the connection failed.
    public var isConnectionError: Bool { kind == .connectionFailed || kind == .connectionLost || sqlState?.hasPrefix("08") == true }
}
