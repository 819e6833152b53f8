import CEpoll
import Glibc

/// An epoll(7) instance and the eventfd(2) that wakes it from other threads; both descriptors
/// are owned here and closed in `deinit`. Level-triggered: a connection is told again while it
/// has bytes to read, so a loop can read a bounded amount per connection per turn. The HTTP
/// server's loop and the WebSocket hub's each have one.
public final class Epoll: Sendable {
    /// Readable, peer half-closed, error or hang-up: all mean "read now".
    public static let readEvents = UInt32(EPOLLIN.rawValue | EPOLLRDHUP.rawValue)
    public static let writeEvents = UInt32(EPOLLOUT.rawValue)
    public static let errorEvents = UInt32(EPOLLERR.rawValue | EPOLLHUP.rawValue | EPOLLRDHUP.rawValue)

    public let descriptor: Int32
    /// Written by `wake()`, read by the loop.
    public let wakeDescriptor: Int32

    public init() throws(EpollError) {
        let descriptor = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard descriptor >= 0 else { throw EpollError("epoll_create1: \(String(cString: strerror(errno)))") }
        let wake = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard wake >= 0 else {
            Glibc.close(descriptor)
            throw EpollError("eventfd: \(String(cString: strerror(errno)))")
        }
        self.descriptor = descriptor
        wakeDescriptor = wake
        guard revue_epoll_control(descriptor, EPOLL_CTL_ADD, wake, Epoll.readEvents) == 0 else {
            throw EpollError("epoll_ctl(eventfd): \(String(cString: strerror(errno)))")
        }
    }

    deinit {
        Glibc.close(wakeDescriptor)
        Glibc.close(descriptor)
    }

    /// Watches `socket` for `events`.
    public func add(_ socket: Int32, events: UInt32) -> Bool {
        revue_epoll_control(descriptor, EPOLL_CTL_ADD, socket, events) == 0
    }

    /// Changes what `socket` is watched for.
    public func modify(_ socket: Int32, events: UInt32) {
        _ = revue_epoll_control(descriptor, EPOLL_CTL_MOD, socket, events)
    }

    /// Stops watching `socket` (before it is closed, so a reused number is not confused with it).
    public func remove(_ socket: Int32) {
        _ = revue_epoll_control(descriptor, EPOLL_CTL_DEL, socket, 0)
    }

    /// Waits up to `timeout` seconds (negative: forever) and fills the two arrays; returns how
    /// many descriptors are ready.
    public func wait(descriptors: inout [Int32], events: inout [UInt32], timeout: Double) -> Int {
        let milliseconds = timeout < 0 ? -1 : Int32(min(timeout, 3600) * 1000) + 1
        let capacity = Int32(min(descriptors.count, events.count))
        let count = revue_epoll_wait(descriptor, &descriptors, &events, capacity, milliseconds)
        return max(0, Int(count))
    }

    /// Wakes a thread in `wait` (any thread may call it).
    public func wake() {
        var one: UInt64 = 1
        _ = Glibc.write(wakeDescriptor, &one, 8)
    }

    /// Clears the wake-up counter (on the loop thread, when the eventfd is readable).
    public func drainWake() {
        var count: UInt64 = 0
        _ = Glibc.read(wakeDescriptor, &count, 8)
    }
}

/// epoll or its eventfd could not be made.
public struct EpollError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
