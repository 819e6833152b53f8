import Foundation
import Signaling
import Synchronization
import WebSocket

/// A signalling-only member of a room that keeps every `transcriptionText` the server sends,
/// with the wall-clock time it arrived: what any participant of a transcribed room hears, without
/// an SDK. A thread of its own reads the socket until `close()`.
public final class TranscriptListener: Sendable {
    public struct Heard: Sendable {
        public var line: TranscriptionLine
        /// Seconds since 1970 when the frame was read, on the same clock as the line's times.
        public var arrived: Double
        /// From the end of the utterance (as the transcriber timed it) to its arrival here.
        public var latency: Double { arrived - line.end }
    }

    private let socket: WebSocketClient
    private let heard = Mutex<[Heard]>([])
    private let stopped = Atomic<Bool>(false)
    private let ended = DispatchSemaphore(value: 0)

    /// Joins `room` on the room server at `signalingURL` as `name`, SIGNALLING_ONLY.
    public init(signalingURL: String, room: String, token: String, name: String = "Listener") throws {
        socket = try WebSocketClient(url: signalingURL)
        let join = ClientEnvelope(.join(JoinRequest(token: token, roomID: room, name: name, mode: .signallingOnly)), id: .string("join"))
        try socket.send(text: join.text)
        let deadline = Date().addingTimeInterval(10)
        joining: while Date() < deadline {
            guard case .text(let text) = try socket.receive(timeout: 10), let envelope = try? ServerEnvelope(text: text) else { continue }
            switch envelope.message {
            case .joined: break joining
            case .error(let code, let message): throw ToolError("the listener could not join: \(code) \(message)")
            default: continue
            }
        }
        Thread { [self] in read() }.start()
    }

    deinit { close() }

    /// What was heard so far, in the order it came.
    public var lines: [Heard] { heard.withLock { $0 } }

    /// Waits until `count` lines have come or `seconds` have passed; whether they came.
    public func wait(forLines count: Int, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while lines.count < count && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        return lines.count >= count
    }

    /// Stops reading and leaves.
    public func close() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        ended.wait()
        _ = socket.close(timeout: 2)
    }

    private func read() {
        defer { ended.signal() }
        while !stopped.load(ordering: .acquiring) {
            let message: WebSocketMessage
            do {
                message = try socket.receive(timeout: 0.2)
            } catch {
                if error.isTimeout { continue }
                return
            }
            guard case .text(let text) = message, case .transcriptionText(let line)? = try? ServerEnvelope(text: text).message else { continue }
            let arrived = Date().timeIntervalSince1970
            heard.withLock { $0.append(Heard(line: line, arrived: arrived)) }
        }
    }
}
