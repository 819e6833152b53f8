import CLibPQ
import Foundation
import Log

/// One connection to PostgreSQL through libpq. It closes the connection in `deinit`.
///
/// Every statement takes its values as bound parameters (`PQexecParams`): SQL text is never built
/// from values. The connection is safe to share between threads; statements are serialised by a
/// lock. A connection that LISTENs should be its own: `waitForNotifications` holds that lock
/// while it waits.
// @unchecked Sendable: owns a libpq `PGconn`; statements and `transactionDepth` guarded by `lock` (an NSRecursiveLock)
public final class PostgresConnection: @unchecked Sendable {
    private let handle: OpaquePointer
    private let lock = NSRecursiveLock()
    private var transactionDepth = 0

    /// Connects with a libpq connection string: `key=value` pairs or a `postgresql://` URI
    /// (https://www.postgresql.org/docs/current/libpq-connect.html#LIBPQ-CONNSTRING).
    public init(_ connectionString: String) throws(PostgresError) {
        guard let connection = PQconnectdb(connectionString) else {
            throw PostgresError(kind: .connectionFailed, message: "libpq could not allocate a connection")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let reason = PostgresConnection.message(of: connection)
            PQfinish(connection)
            throw PostgresError(kind: .connectionFailed,
                                message: "\(reason) (connection: \(PostgresConnection.redacted(connectionString)))")
        }
        handle = connection
        // Server notices ("relation already exists, skipping") go to the debug log, not stderr.
        PQsetNoticeProcessor(connection, { _, message in
            guard let message else { return }
            let text = String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
            Logger(label: "postgres").debug("server notice", ["notice": .string(text)])
        }, nil)
        // Timestamps cross the wire in one fixed form; see PostgresTimestamp.
        try execute(script: "SET TimeZone TO 'UTC'; SET DateStyle TO 'ISO, YMD'")
    }

    deinit {
        PQfinish(handle)
    }

    /// The server's version as a number, for example 150018 for 15.18.
    public var serverVersion: Int { Int(PQserverVersion(handle)) }

    /// The backend process id of this connection.
    public var backendPID: Int32 { PQbackendPID(handle) }

    /// True while the connection is usable.
    public var isConnected: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Runs one statement with bound parameters ($1, $2, …) and returns its rows.
    @discardableResult
    public func query(_ sql: String, _ parameters: [(any PostgresEncodable)?] = []) throws(PostgresError) -> PostgresRows {
        lock.lock()
        defer { lock.unlock() }
        let encoded = parameters.map { $0?.postgresParameter }
        let result = withParameterArrays(encoded) { values, lengths, formats, types in
            PQexecParams(handle, sql, Int32(encoded.count), types, values, lengths, formats, 0)
        }
        return try consume(result, statement: sql)
    }

    /// Runs SQL text with no parameters, which may hold several statements. This is for trusted
    /// text only, such as migration files: never for anything built from values.
    public func execute(script: String) throws(PostgresError) {
        lock.lock()
        defer { lock.unlock() }
        _ = try consume(PQexec(handle, script), statement: script)
    }

    /// Runs `body` in a transaction: COMMIT when it returns, ROLLBACK when it throws (and the
    /// error is rethrown). A nested call runs inside a SAVEPOINT.
    @discardableResult
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        let depth = transactionDepth
        let savepoint = "revue_savepoint_\(depth)"
        try execute(script: depth == 0 ? "BEGIN" : "SAVEPOINT \(savepoint)")
        transactionDepth += 1
        defer { transactionDepth -= 1 }
        do {
            let value = try body()
            try execute(script: depth == 0 ? "COMMIT" : "RELEASE SAVEPOINT \(savepoint)")
            return value
        } catch {
            // The original error matters more than a failed rollback on a broken connection.
            try? execute(script: depth == 0 ? "ROLLBACK" : "ROLLBACK TO SAVEPOINT \(savepoint)")
            throw error
        }
    }

    /// LISTEN on a channel. A channel is an identifier, not a value, so it is quoted with
    /// `PQescapeIdentifier` rather than bound.
    public func listen(_ channel: String) throws(PostgresError) {
        let quoted = try quotedIdentifier(channel)
        try execute(script: "LISTEN \(quoted)")
    }

    public func unlisten(_ channel: String) throws(PostgresError) {
        let quoted = try quotedIdentifier(channel)
        try execute(script: "UNLISTEN \(quoted)")
    }

    /// NOTIFY through `pg_notify`, so the channel and payload are bound parameters.
    public func notify(_ channel: String, payload: String = "") throws(PostgresError) {
        try query("SELECT pg_notify($1, $2)", [channel, payload])
    }

    /// Returns the notifications that have arrived, waiting up to `timeout` seconds for the first,
    /// or until one of `descriptors` is readable (a worker wakes for its children's pipes too).
    /// Returns an empty array on timeout or when a descriptor woke it.
    public func waitForNotifications(timeout: Double, orReadable descriptors: [Int32] = []) throws(PostgresError) -> [PostgresNotification] {
        lock.lock()
        defer { lock.unlock() }
        var received = try drainNotifications()
        if !received.isEmpty { return received }
        let socket = PQsocket(handle)
        guard socket >= 0 else {
            throw PostgresError(kind: .connectionLost, message: "the connection has no socket")
        }
        var watched = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0)]
            + descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let deadline = Date().addingTimeInterval(max(0, timeout))
        while received.isEmpty {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { break }
            let ready = poll(&watched, nfds_t(watched.count), Int32((remaining * 1000).rounded(.up)))
            if ready < 0 {
                if errno == EINTR { continue }
                throw PostgresError(kind: .connectionLost, message: "poll failed: \(String(cString: strerror(errno)))")
            }
            if ready == 0 { break }
            received = try drainNotifications()
            if watched.dropFirst().contains(where: { $0.revents != 0 }) { break }
        }
        return received
    }

    /// Quotes an identifier (a table, channel or database name) for SQL text.
    public func quotedIdentifier(_ name: String) throws(PostgresError) -> String {
        lock.lock()
        defer { lock.unlock() }
        guard let escaped = PQescapeIdentifier(handle, name, name.utf8.count) else {
            throw PostgresError(kind: .statementFailed, message: PostgresConnection.message(of: handle))
        }
        defer { PQfreemem(escaped) }
        return String(cString: escaped)
    }

    // MARK: - libpq plumbing

    private func drainNotifications() throws(PostgresError) -> [PostgresNotification] {
        guard PQconsumeInput(handle) == 1 else {
            throw PostgresError(kind: .connectionLost, message: PostgresConnection.message(of: handle))
        }
        var received: [PostgresNotification] = []
        while let notice = PQnotifies(handle) {
            let message = notice.pointee
            received.append(PostgresNotification(
                channel: message.relname.map { String(cString: $0) } ?? "",
                payload: message.extra.map { String(cString: $0) } ?? "",
                senderPID: message.be_pid))
            PQfreemem(notice)
        }
        return received
    }

    /// Turns a PGresult into rows or an error, and frees it.
    private func consume(_ result: OpaquePointer?, statement: String) throws(PostgresError) -> PostgresRows {
        guard let result else {
            let kind: PostgresError.Kind = PQstatus(handle) == CONNECTION_OK ? .statementFailed : .connectionLost
            throw PostgresError(kind: kind, message: PostgresConnection.message(of: handle), statement: statement)
        }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return PostgresConnection.rows(of: result)
        default:
            func field(_ code: Character) -> String? {
                guard let value = PQresultErrorField(result, Int32(code.asciiValue ?? 0)) else { return nil }
                return String(cString: value)
            }
            let sqlState = field("C")
            let message = field("M") ?? PostgresConnection.message(of: handle)
            let lost = PQstatus(handle) != CONNECTION_OK
            throw PostgresError(kind: lost ? .connectionLost : .statementFailed, sqlState: sqlState, message: message,
                                detail: field("D"), hint: field("H"), statement: statement)
        }
    }

    private static func rows(of result: OpaquePointer) -> PostgresRows {
        let rowCount = Int(PQntuples(result))
        let columnCount = Int(PQnfields(result))
        let columns = (0..<columnCount).map { String(cString: PQfname(result, Int32($0))) }
        var values: [[String?]] = []
        values.reserveCapacity(rowCount)
        for row in 0..<rowCount {
            var rowValues: [String?] = []
            rowValues.reserveCapacity(columnCount)
            for column in 0..<columnCount {
                if PQgetisnull(result, Int32(row), Int32(column)) == 1 {
                    rowValues.append(nil)
                } else {
                    rowValues.append(String(cString: PQgetvalue(result, Int32(row), Int32(column))))
                }
            }
            values.append(rowValues)
        }
        let tuples = String(cString: PQcmdTuples(result))
        return PostgresRows(columns: columns, values: values, affectedRows: Int(tuples) ?? 0)
    }

    /// Lays parameters out as the C arrays PQexecParams wants, for the duration of `body`.
    private func withParameterArrays<R>(
        _ parameters: [PostgresParameter?],
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?, UnsafePointer<Oid>?) -> R
    ) -> R {
        // Each value is copied into memory that lives until body returns.
        var storage: [UnsafeMutablePointer<CChar>?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        var types: [Oid] = []
        for parameter in parameters {
            switch parameter {
            case nil:
                storage.append(nil)
                lengths.append(0)
                formats.append(0)
                types.append(0)
            case .text(let text)?:
                let bytes = Array(text.utf8CString)
                let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
                pointer.initialize(from: bytes, count: bytes.count)
                storage.append(pointer)
                lengths.append(Int32(bytes.count - 1))
                formats.append(0)
                types.append(0)
            case .binary(let bytes, let typeOID)?:
                let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, bytes.count))
                bytes.withUnsafeBytes { raw in
                    if let base = raw.baseAddress {
                        UnsafeMutableRawPointer(pointer).copyMemory(from: base, byteCount: bytes.count)
                    }
                }
                storage.append(pointer)
                lengths.append(Int32(bytes.count))
                formats.append(1)
                types.append(typeOID)
            }
        }
        defer { storage.forEach { $0?.deallocate() } }
        let values = storage.map { UnsafePointer($0) }
        return values.withUnsafeBufferPointer { valuesBuffer in
            lengths.withUnsafeBufferPointer { lengthsBuffer in
                formats.withUnsafeBufferPointer { formatsBuffer in
                    types.withUnsafeBufferPointer { typesBuffer in
                        body(valuesBuffer.baseAddress, lengthsBuffer.baseAddress, formatsBuffer.baseAddress,
                             typesBuffer.baseAddress)
                    }
                }
            }
        }
    }

    private static func message(of connection: OpaquePointer) -> String {
        guard let text = PQerrorMessage(connection) else { return "unknown libpq error" }
        return String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The connection string with any password replaced, for error messages.
    static func redacted(_ connectionString: String) -> String {
        var text = connectionString
        // URI form: postgresql://user:secret@host
        if let scheme = text.range(of: "://"), let at = text.range(of: "@", range: scheme.upperBound..<text.endIndex) {
            let credentials = text[scheme.upperBound..<at.lowerBound]
            if let colon = credentials.firstIndex(of: ":") {
                text.replaceSubrange(text.index(after: colon)..<at.lowerBound, with: "***")
            }
        }
        // key=value form: password=secret
        if let range = text.range(of: #"password\s*=\s*('[^']*'|\S+)"#, options: .regularExpression) {
            text.replaceSubrange(range, with: "password=***")
        }
        return text
    }
}
