import Foundation

/// One client of `HTTPServer`, owned by its loop: the request being read, the answer being
/// written (bytes, then a file range with sendfile(2)), and the deadline of whichever it is.
final class HTTPServerConnection {
    enum Phase {
        /// Reading a request (or waiting for the next on a kept-alive connection).
        case reading
        /// A worker runs the handler; nothing is read meanwhile.
        case handling
        /// The answer is going out.
        case writing
        /// The answer went out and the connection closes: the writing side is shut, what the
        /// client still sends is dropped, and the descriptor closes when it closes (or soon).
        case draining
    }

    /// What follows a written answer.
    enum After {
        case keepAlive
        case close
        case upgrade(@Sendable (HTTPConnection) -> Void)
    }

    struct FileBody {
        var descriptor: Int32
        var offset: Int64
        var remaining: Int64
    }

    enum WriteOutcome {
        case done
        case blocked
        case failed
    }

    let id: UInt64
    let descriptor: Int32
    let remote: String
    var reader: HTTPRequestReader
    var phase = Phase.reading
    /// Monotonic seconds: when the current phase has run out of time.
    var deadline: Double
    var bodyDeadlineSet = false
    var served = 0
    var output: [UInt8] = []
    var written = 0
    var file: FileBody?
    var after = After.keepAlive
    var watchingWrites = false
    /// The reader's bytes as the server last counted them (its process-wide total).
    var accounted = 0
    /// The body of the request a handler has, counted until its answer.
    var inFlight = 0
    /// Bytes written so far, all answers together (a write deadline moves when this does).
    var sent = 0

    init(id: UInt64, descriptor: Int32, remote: String, limits: HTTPRequestParser.Limits, deadline: Double) {
        self.id = id
        self.descriptor = descriptor
        self.remote = remote
        reader = HTTPRequestReader(limits: limits)
        self.deadline = deadline
    }

    deinit { closeFile() }

    /// Writes what the socket takes now: the buffered bytes, then the file's.
    func write() -> WriteOutcome {
        while written < output.count {
            let sent = output.withUnsafeBytes { bytes in
                send(descriptor, bytes.baseAddress.map { $0 + written }, bytes.count - written, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                return errno == EAGAIN || errno == EWOULDBLOCK ? .blocked : .failed
            }
            written += sent
            self.sent += sent
        }
        output = []
        written = 0
        while var body = file, body.remaining > 0 {
            var offset = off_t(body.offset)
            let sent = sendfile(descriptor, body.descriptor, &offset, Int(min(body.remaining, 1 << 20)))
            if sent < 0 {
                if errno == EINTR { continue }
                return errno == EAGAIN || errno == EWOULDBLOCK ? .blocked : .failed
            }
            // A file shorter than promised: the client would wait for bytes that never come.
            if sent == 0 { return .failed }
            self.sent += sent
            body.offset += Int64(sent)
            body.remaining -= Int64(sent)
            file = body
        }
        closeFile()
        return .done
    }

    func closeFile() {
        if let file { close(file.descriptor) }
        file = nil
    }
}
