import Glibc

/// Bytes waiting to go out on one non-blocking socket. Small writes are joined into one chunk
/// so a burst of messages costs one send(2); each chunk holds whole frames, so dropping the
/// chunks not yet begun keeps the stream at a frame boundary (for the close frame after them).
struct WebSocketWriteQueue {
    enum FlushResult: Equatable {
        /// Everything went out.
        case drained
        /// The socket buffer is full; wait for EPOLLOUT.
        case blocked
        /// The peer is gone.
        case failed
    }

    private var chunks: [[UInt8]] = []
    private var head = 0
    /// How much of `chunks[head]` has been sent.
    private var offset = 0
    /// Bytes not yet sent.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        count += bytes.count
        // Join onto the last chunk while it is small (it may be the one being sent: its offset stays valid).
        if chunks.count > head, let last = chunks.indices.last, chunks[last].count + bytes.count <= 64 * 1024 {
            chunks[last].append(contentsOf: bytes)
        } else {
            chunks.append(bytes)
        }
    }

    /// Sends what the socket takes without blocking.
    mutating func flush(to socket: Int32) -> FlushResult {
        while head < chunks.count {
            let sent = chunks[head].withUnsafeBytes { buffer in
                send(socket, buffer.baseAddress.map { $0 + offset }, buffer.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                guard errno == EAGAIN || errno == EWOULDBLOCK else { return .failed }
                if head > 0 {
                    chunks.removeFirst(head)
                    head = 0
                }
                return .blocked
            }
            offset += sent
            count -= sent
            if offset == chunks[head].count {
                head += 1
                offset = 0
            }
        }
        chunks.removeAll(keepingCapacity: false)
        head = 0
        return .drained
    }

    /// Drops every chunk not begun, keeping a partly sent one so the stream ends on a frame boundary.
    mutating func dropUnsent() {
        guard head < chunks.count else { return }
        if offset > 0 {
            chunks = [chunks[head]]
            count = chunks[0].count - offset
        } else {
            chunks = []
            offset = 0
            count = 0
        }
        head = 0
    }
}
