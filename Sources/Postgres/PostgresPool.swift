import Foundation

/// A few connections shared by many threads: each caller borrows one for the length of a
/// closure (a transaction, or a statement), so a slow request does not hold up the others.
// @unchecked Sendable: mutable state (`idle`, `open`) guarded by `condition` (an NSCondition)
public final class PostgresPool: @unchecked Sendable {
    public let connectionString: String
    public let size: Int
    private let condition = NSCondition()
    private var idle: [PostgresConnection] = []
    private var open = 0

    public init(_ connectionString: String, size: Int = 8) {
        self.connectionString = connectionString
        self.size = max(1, size)
    }

    /// Runs `body` with a connection of its own. A connection that broke is dropped, not reused.
    @discardableResult
    public func with<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let connection = try checkOut()
        var healthy = true
        defer { checkIn(connection, healthy: healthy) }
        do {
            return try body(connection)
        } catch let error as PostgresError where error.isConnectionError {
            healthy = false
            throw error
        }
    }

    /// Runs `body` in a transaction on a connection of its own.
    @discardableResult
    public func transaction<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try with { connection in try connection.transaction { try body(connection) } }
    }

    private func checkOut() throws -> PostgresConnection {
        condition.lock()
        while idle.isEmpty && open >= size { condition.wait() }
        if let connection = idle.popLast() {
            condition.unlock()
            if connection.isConnected { return connection }
            condition.lock()
            open -= 1
            condition.unlock()
            return try checkOut()
        }
        open += 1
        condition.unlock()
        do {
            return try PostgresConnection(connectionString)
        } catch {
            condition.lock()
            open -= 1
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    private func checkIn(_ connection: PostgresConnection, healthy: Bool) {
        condition.lock()
        if healthy && connection.isConnected {
            idle.append(connection)
        } else {
            open -= 1
        }
        condition.signal()
        condition.unlock()
    }
}
