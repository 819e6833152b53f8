import Foundation

/// The threads that run HTTP handlers, which may block (a database query): a fixed number, fed
/// from one bounded queue. A slow client never holds one, since the server's loop reads the
/// whole request before a handler sees it and writes the answer after; a handler holds one only
/// while it runs.
// @unchecked Sendable: mutable state (`queue`, `head`, `stopping`, `running`) guarded by `condition` (an NSCondition)
final class HTTPWorkerPool: @unchecked Sendable {
    private let condition = NSCondition()
    /// Jobs in order; a taken one is cleared at once, so a finished request's bytes go with it.
    private var queue: [(@Sendable () -> Void)?] = []
    private var head = 0
    private var stopping = false
    private var running = 0
    let capacity: Int

    /// `threads` workers with `stackSize` bytes of stack each; at most `capacity` jobs wait.
    init(threads: Int, capacity: Int, stackSize: Int, name: String) {
        self.capacity = capacity
        for index in 0..<max(1, threads) {
            let thread = Thread { [self] in work() }
            thread.name = "\(name) \(index)"
            thread.stackSize = stackSize
            condition.lock()
            running += 1
            condition.unlock()
            thread.start()
        }
    }

    /// Queues a job; false when the queue is full or the pool stopped (the caller answers 503).
    func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !stopping, queue.count - head < capacity else { return false }
        queue.append(job)
        condition.signal()
        return true
    }

    /// Jobs waiting.
    var waiting: Int {
        condition.lock()
        defer { condition.unlock() }
        return queue.count - head
    }

    /// Lets the queued jobs finish, then ends the threads and returns.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while head == queue.count && !stopping { condition.wait() }
            if head == queue.count {
                running -= 1
                condition.broadcast()
                condition.unlock()
                return
            }
            let job = queue[head]
            queue[head] = nil
            head += 1
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            } else if head > 1024 && head * 2 > queue.count {
                queue.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job?()
        }
    }
}
