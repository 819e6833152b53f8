import Foundation

/// One end of a pipe to a child process, closed when the last reference goes. Reads and writes
/// retry on EINTR and loop until done. A child's standard input is a Unix socket rather than a
/// pipe, so that writing to a child that has gone fails with EPIPE (`MSG_NOSIGNAL`) instead of
/// raising SIGPIPE, whatever the process does with that signal.
public final class PipeEnd: Sendable {
    public let descriptor: Int32
    private let isSocket: Bool

    init(descriptor: Int32, isSocket: Bool = false) {
        self.descriptor = descriptor
        self.isSocket = isSocket
    }

    deinit { close(descriptor) }

    /// Writes all of `bytes`, or throws when the other end is closed.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SubprocessError) {
        guard var next = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let written = isSocket ? send(descriptor, next, left, Int32(MSG_NOSIGNAL)) : Glibc.write(descriptor, next, left)
            if written < 0 {
                if errno == EINTR { continue }
                throw SubprocessError("write to the child failed: \(String(cString: strerror(errno)))")
            }
            left -= written
            next += written
        }
    }

    /// Writes all of `bytes` within `timeout` seconds, or throws: when the other end is closed,
    /// or when it has not taken them by then (a child that stopped reading must not hold the
    /// writer up; the stream is then cut wherever the bytes got to). Only a socket (a child's
    /// standard input) can time out; a plain pipe blocks as `write(_:)` does.
    public func write(_ bytes: [UInt8], timeout: Double) throws(SubprocessError) {
        guard isSocket else { return try write(bytes) }
        // The monotonic clock: a wall clock stepped back must not stretch the wait.
        let deadline = ProcessInfo.processInfo.systemUptime + timeout
        var offset = 0
        while offset < bytes.count {
            let (written, failure) = bytes.withUnsafeBytes { buffer -> (Int, Int32) in
                guard let base = buffer.baseAddress else { return (0, 0) }
                let count = send(descriptor, base + offset, buffer.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                return (count, count < 0 ? errno : 0)
            }
            if written > 0 {
                offset += written
                continue
            }
            if failure == EINTR { continue }
            guard written == 0 || failure == EAGAIN || failure == EWOULDBLOCK else {
                throw SubprocessError("write to the child failed: \(String(cString: strerror(failure)))")
            }
            let left = deadline - ProcessInfo.processInfo.systemUptime
            guard left > 0, waitWritable(milliseconds: Int32(min(left, 86_400) * 1000) + 1) else {
                throw SubprocessError("the child has not read for \(timeout) s (\(offset) of \(bytes.count) bytes written)")
            }
        }
    }

    /// Whether the other end can take more now (its buffer is not full): a child that is not
    /// reading can be passed over without waiting.
    public var isWritable: Bool { waitWritable(milliseconds: 0) }

    private func waitWritable(milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        while true {
            let ready = poll(&entry, 1, milliseconds)
            if ready >= 0 { return ready > 0 }
            if errno != EINTR { return false }
        }
    }

    public func write(_ bytes: [UInt8]) throws(SubprocessError) {
        var failure: SubprocessError?
        bytes.withUnsafeBytes { buffer in
            do throws(SubprocessError) { try write(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Reads up to `capacity` bytes; an empty result means the other end closed.
    public func read(upTo capacity: Int) throws(SubprocessError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: capacity)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, capacity) }
            if count >= 0 { return Array(buffer.prefix(count)) }
            if errno == EINTR { continue }
            throw SubprocessError("read from the child failed: \(String(cString: strerror(errno)))")
        }
    }

    /// Waits up to `timeout` seconds for something to read (or the other end to close).
    public func waitReadable(timeout: Double) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(max(0, min(timeout, 86_400)) * 1000)
        while true {
            let ready = poll(&entry, 1, milliseconds)
            if ready >= 0 { return ready > 0 }
            if errno != EINTR { return false }
        }
    }
}
