import CLinux
import Foundation
import Glibc
import Log
import Synchronization

/// One thread that owns a set of file descriptors and the state behind them: it waits on them
/// (poll(2)) and on work posted from other threads (woken through an eventfd), and wakes no
/// later than the deadline its owner gives, so timers need no thread of their own. Everything
/// a loop owns is touched only on its thread: no locks on the hot path.
// @unchecked Sendable: `posted`, `stopping` in a Mutex, `hasFinished` by `finished`; `watches` are the loop's
public final class EventLoop: @unchecked Sendable {
    /// What the loop waits on and calls.
    public struct Watch {
        public let descriptor: Int32
        public let onReadable: () -> Void

        public init(descriptor: Int32, onReadable: @escaping () -> Void) {
            self.descriptor = descriptor
            self.onReadable = onReadable
        }
    }

    public let name: String
    private let wakeDescriptor: Int32
    /// Work posted from other threads, and whether `stop` was asked for.
    private let inbox = Mutex<(posted: [@Sendable () -> Void], stopping: Bool)>(([], false))
    private var watches: [Watch] = []
    private var thread: Thread?
    private let finished = NSCondition()
    private var hasFinished = false
    /// Called before each wait: it handles what is due at `now` and says when it next needs to
    /// run (nil: only when something arrives).
    public var onTick: (_ now: Double) -> Double? = { _ in nil }
    private let logger: Logger

    public init(name: String) throws(TransportError) {
        self.name = name
        let descriptor = revue_eventfd()
        guard descriptor >= 0 else { throw .system("eventfd") }
        wakeDescriptor = descriptor
        logger = Logger(label: "loop", fields: ["loop": .string(name)])
    }

    deinit {
        close(wakeDescriptor)
    }

    /// Monotonic seconds, the clock every loop-driven state machine runs on.
    public static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Watches a descriptor (call before `start`, or from the loop's thread).
    public func watch(_ watch: Watch) {
        watches.append(watch)
    }

    public func start() {
        let thread = Thread { [self] in run() }
        thread.name = name
        self.thread = thread
        thread.start()
    }

    /// Runs `work` on the loop's thread, soon.
    public func post(_ work: @escaping @Sendable () -> Void) {
        inbox.withLock { $0.posted.append(work) }
        wake()
    }

    /// Runs `work` on the loop's thread and waits for its result, at most `timeout` seconds:
    /// a caller on another thread (an HTTP request, `/metrics`) is never held longer than that,
    /// whatever the loop is doing. Past it, this throws and `work` still runs when the loop gets
    /// to it, its result dropped. Never call it from the loop's own thread.
    public func sync<T: Sendable>(timeout: Double = 10, _ work: @escaping @Sendable () throws -> T) throws -> T {
        let done = NSCondition()
        let box = ResultBox<T>()
        post {
            let result = Result { try work() }
            done.lock()
            box.result = result
            done.signal()
            done.unlock()
        }
        let deadline = Date().addingTimeInterval(timeout)
        done.lock()
        while box.result == nil && done.wait(until: deadline) {}
        let result = box.result
        done.unlock()
        guard let result else { throw TransportError("the loop \(name) did not answer within \(Int(timeout)) s") }
        return try result.get()
    }

    /// Stops the loop after the work posted so far, and waits for its thread to end.
    public func stop() {
        inbox.withLock { $0.stopping = true }
        wake()
        finished.lock()
        while thread != nil && !hasFinished { finished.wait() }
        finished.unlock()
    }

    private func wake() {
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, 8)
    }

    /// Runs the work posted so far; true once `stop` has been asked for.
    private func runPosted() -> Bool {
        let (work, stop) = inbox.withLock { inbox in
            defer { inbox.posted.removeAll() }
            return (inbox.posted, inbox.stopping)
        }
        for item in work { item() }
        return stop
    }

    private func run() {
        var descriptors = [pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)]
        descriptors += watches.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
        while true {
            if runPosted() { break }
            let now = EventLoop.now()
            let deadline = onTick(now)
            // poll(2) takes milliseconds; a deadline in the past polls without waiting.
            let timeout = deadline.map { Int32(max(0, min(1000, ($0 - now) * 1000).rounded(.up))) } ?? 1000
            for index in descriptors.indices { descriptors[index].revents = 0 }
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                logger.error("poll failed", ["error": .string(String(cString: strerror(errno)))])
                break
            }
            if descriptors[0].revents != 0 {
                var count: UInt64 = 0
                _ = read(wakeDescriptor, &count, 8)
            }
            // Work posted while the loop slept runs before the datagrams that woke the same
            // poll: it was queued first. A participant's `leave` arrives over signalling and is
            // posted here just before their DTLS close_notify comes in over UDP; handled the
            // other way round, the room would hear a lost connection (1001), not a leave (1101).
            if runPosted() { break }
            for (index, watch) in watches.enumerated() where descriptors[index + 1].revents != 0 {
                watch.onReadable()
            }
        }
        finished.lock()
        hasFinished = true
        finished.broadcast()
        finished.unlock()
    }
}

/// Carries a result from the loop's thread to a waiting one (guarded by their condition).
// @unchecked Sendable: mutable state (`result`) guarded by EventLoop.sync's `done` NSCondition; T is Sendable
private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, Error>?
}
