import Foundation
import Log

/// A LISTEN connection that comes back by itself: every loop that waits on NOTIFY (the worker,
/// the webhook dispatcher, the room server's job states, `revue jobs watch`) waits through one.
/// A wait connects when there is no connection (the first, or after one was lost), LISTENs on
/// every channel, and returns what arrived; a lost or refused connection is logged, waited out
/// with a backoff (0.25 s doubling to 5 s, never past the wait's timeout) and retried on the next
/// wait. Notifications sent while it was down are lost, as PostgreSQL drops them: callers read
/// their state again after every wait (they all do: NOTIFY only wakes them early).
/// Used by one thread at a time.
public final class PostgresListener {
    public let channels: [String]
    private let connectionString: String
    private let logger: Logger
    private var connection: PostgresConnection?
    private var failures = 0
    /// How many times the connection was lost (or never made) and made again.
    public private(set) var reconnections = 0

    public init(connectionString: String, channels: [String], logger: Logger = Logger(label: "postgres")) {
        self.connectionString = connectionString
        self.channels = channels
        self.logger = logger
    }

    /// The wait before retrying after `failures` failed connections in a row.
    public static func backoff(afterFailures failures: Int) -> Double {
        min(5, 0.25 * pow(2, Double(max(0, failures - 1))))
    }

    /// Notifications that arrived, waiting up to `timeout` seconds for the first, or until one
    /// of `descriptors` is readable. Never throws: trouble with the connection is logged and
    /// ends the wait early or late by at most the backoff.
    public func wait(timeout: Double, orReadable descriptors: [Int32] = []) -> [PostgresNotification] {
        do {
            let listening = try connected()
            let received = try listening.waitForNotifications(timeout: timeout, orReadable: descriptors)
            failures = 0
            return received
        } catch {
            connection = nil
            failures += 1
            let pause = min(max(0, timeout), Self.backoff(afterFailures: failures))
            logger.error("the LISTEN connection failed; retrying", ["channels": .string(channels.joined(separator: ",")),
                                                                    "error": .string("\(error)"), "retryIn": .double(pause)])
            Thread.sleep(forTimeInterval: pause)
            return []
        }
    }

    /// Closes the connection (a later wait makes a new one).
    public func close() {
        connection = nil
    }

    private func connected() throws(PostgresError) -> PostgresConnection {
        if let connection { return connection }
        let made = try PostgresConnection(connectionString)
        for channel in channels { try made.listen(channel) }
        if failures > 0 { reconnections += 1 }
        connection = made
        return made
    }
}
