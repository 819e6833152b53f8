import Encode
import Foundation
import Log
import Media

/// Puts an output on its own thread behind a bounded queue, so outputs never slow each other
/// or the pipeline: the encoded packets are shared, and each output takes them at its own pace.
///
/// - `.block`: when the queue is full the producer waits (files: no data may be dropped).
/// - `.dropToKeyframe`: when the queue is full it is emptied and the output skips to the next
///   keyframe (network outputs: a slow server costs frames, never unbounded memory).
///
/// An output that fails is reported once and stops taking packets; the others go on.
// @unchecked Sendable: the queue and counters guarded by `condition`; `sink` is used only on the output's own thread
public final class QueuedSink: PacketSink, @unchecked Sendable {
    /// What the queue holds: packets, and captions and metadata in their place among them.
    private enum Item {
        case packet(EncodedPacket)
        case caption(Caption)
        case captionsExpected
        case metadata(key: String, value: String)
    }

    public enum Policy: Sendable {
        case block
        case dropToKeyframe
    }

    /// What the queue knows about its output, for status reports.
    public struct Status: Sendable {
        public var name: String
        public var queuedPackets: Int
        public var droppedPackets: Int
        public var written: Int
        public var failure: String?
    }

    public let sink: any PacketSink
    public let policy: Policy
    public let capacity: Int
    public var name: String { sink.name }
    private let condition = NSCondition()
    private var queue: [Item] = []
    private var head = 0
    private var ending = false
    private var done = false
    private var waitingForKeyframe = false
    private var dropped = 0
    private var written = 0
    private var failure: Error?
    private var finishError: Error?
    private let logger: Logger
    /// Called on the output's thread when it fails.
    public var onFailure: @Sendable (String, Error) -> Void = { _, _ in }

    /// `capacity` is in packets (about 50 a second at 30 fps with AAC).
    public init(_ sink: any PacketSink, policy: Policy, capacity: Int = 400, logger: Logger = Logger(label: "output")) {
        self.sink = sink
        self.policy = policy
        self.capacity = capacity
        self.logger = logger.with(["output": .string(sink.name)])
        let thread = Thread { [self] in run() }
        thread.name = "output \(sink.name)"
        thread.start()
    }

    public func write(_ packet: EncodedPacket) throws {
        condition.lock()
        defer { condition.unlock() }
        guard failure == nil, !ending else { return }
        if queue.count - head >= capacity {
            switch policy {
            case .block:
                while queue.count - head >= capacity && failure == nil { condition.wait() }
            case .dropToKeyframe:
                dropped += queue.count - head
                queue.removeAll(keepingCapacity: true)
                head = 0
                waitingForKeyframe = true
                logger.warning("the output is behind; skipping to the next keyframe")
            }
        }
        if waitingForKeyframe {
            guard packet.stream == .video && packet.isKeyframe else {
                dropped += 1
                return
            }
            waitingForKeyframe = false
        }
        queue.append(.packet(packet))
        condition.signal()
    }

    /// Queues a caption behind the packets before it (a caption is small and never dropped
    /// for being late: the output decides where it goes).
    public func add(caption: Caption) {
        condition.lock()
        defer { condition.unlock() }
        guard failure == nil, !ending else { return }
        queue.append(.caption(caption))
        condition.signal()
    }

    /// Queues the news that captions will follow, behind the packets before it.
    public func expectCaptions() {
        condition.lock()
        defer { condition.unlock() }
        guard failure == nil, !ending else { return }
        queue.append(.captionsExpected)
        condition.signal()
    }

    /// Queues a line of metadata behind the packets before it.
    public func add(metadata key: String, value: String) {
        condition.lock()
        defer { condition.unlock() }
        guard failure == nil, !ending else { return }
        queue.append(.metadata(key: key, value: value))
        condition.signal()
    }

    /// Drains the queue, finishes the output, and rethrows its failure.
    public func finish() throws {
        condition.lock()
        ending = true
        condition.broadcast()
        while !done { condition.wait() }
        let error = failure ?? finishError
        condition.unlock()
        if let error { throw error }
    }

    public var status: Status {
        condition.lock()
        defer { condition.unlock() }
        return Status(name: sink.name, queuedPackets: queue.count - head, droppedPackets: dropped, written: written,
                      failure: failure.map { "\($0)" })
    }

    private func run() {
        while true {
            condition.lock()
            while head == queue.count && !ending { condition.wait() }
            if head == queue.count && ending {
                condition.unlock()
                break
            }
            let item = queue[head]
            head += 1
            if head > 256 && head * 2 > queue.count {
                queue.removeFirst(head)
                head = 0
            }
            condition.broadcast()
            let failed = failure != nil
            condition.unlock()
            if failed { continue }
            do {
                switch item {
                case .packet(let packet):
                    try sink.write(packet)
                    condition.lock()
                    written += 1
                    condition.unlock()
                case .caption(let caption):
                    sink.add(caption: caption)
                case .captionsExpected:
                    sink.expectCaptions()
                case .metadata(let key, let value):
                    sink.add(metadata: key, value: value)
                }
            } catch {
                condition.lock()
                failure = error
                queue.removeAll()
                head = 0
                condition.broadcast()
                condition.unlock()
                logger.error("output failed", ["error": .string("\(error)")])
                onFailure(sink.name, error)
            }
        }
        var closing: Error?
        do {
            try sink.finish()
        } catch {
            closing = error
        }
        condition.lock()
        if failure == nil { finishError = closing }
        done = true
        condition.broadcast()
        condition.unlock()
    }
}
