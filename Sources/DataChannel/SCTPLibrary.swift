#if canImport(Glibc)
import Glibc
#endif
import CUsrsctp
import Foundation
import Log
import Synchronization

/// usrsctp's process-wide state, in one place: the one initialisation, the AF_CONN addresses
/// that route its callbacks to associations, and its one timer wheel, with the clocks that move it.
///
/// Threads (documented in `SCTPAssociation`): `usrsctp_init_nothreads` starts no timer thread
/// and no socket threads, so usrsctp runs only inside calls into it, and its callbacks run on
/// the calling thread. It still starts its "iterator" thread (for operations over every
/// association, which Revue does not use). Its own locks do not make it safe to enter from two
/// threads at once: its one timer wheel races with input and with address changes on other
/// threads (sctplab/usrsctp#101, #673; a CI run here aborted with a corrupted heap while the
/// SFU's, the SDK's and the fuzz tests' associations ran on their own threads). So every call
/// into it holds `entry`, one lock for the process.
enum SCTPLibrary {
    /// Held around every call into usrsctp (recursive: an association's call may advance the
    /// timers, which take it too). The callbacks only queue into inboxes, so nothing waits on
    /// another lock while holding this one.
    static let entry = NSRecursiveLock()

    /// Swift runs a static initialiser exactly once, thread-safely.
    private static let initialized: Bool = {
        entry.lock()
        defer { entry.unlock() }
        revue_usrsctp_init_nothreads(output, logLine)
        // Over DTLS there is no ECN to echo, and WebRTC uses neither dynamic addresses nor
        // SCTP-AUTH (RFC 8831 §6.2 lists what it needs); AUTH can only be off once ASCONF is.
        _ = usrsctp_sysctl_set_sctp_ecn_enable(0)
        _ = usrsctp_sysctl_set_sctp_asconf_enable(0)
        _ = usrsctp_sysctl_set_sctp_auth_enable(0)
        return true
    }()

    private static let logger = Logger(label: "usrsctp")

    /// Initialises usrsctp if nothing has.
    static func ensureInitialized() {
        _ = initialized
    }

    // MARK: Addresses

    private struct Registry {
        var next: UInt = 1
        var inboxes: [UInt: SCTPInbox] = [:]
    }

    private static let registry = Mutex(Registry())

    /// A new AF_CONN address for an association's callbacks to reach `inbox` by.
    ///
    /// The address is a number, not a pointer to anything: a callback that runs after the
    /// association is gone (a timer of a closing association) finds no inbox and drops what
    /// it had, instead of touching freed memory.
    static func register(_ inbox: SCTPInbox) -> UInt {
        registry.withLock { registry in
            let address = registry.next
            registry.next += 1
            registry.inboxes[address] = inbox
            return address
        }
    }

    /// Forgets an address; later callbacks for it are dropped.
    static func unregister(_ address: UInt) {
        _ = registry.withLock { $0.inboxes.removeValue(forKey: address) }
    }

    private static func inbox(_ address: UnsafeMutableRawPointer?) -> SCTPInbox? {
        let key = UInt(bitPattern: address)
        return registry.withLock { $0.inboxes[key] }
    }

    // MARK: Callbacks (they run inside usrsctp, with its locks held: they only queue)

    /// The AF_CONN output callback: one SCTP packet for the association at `address`.
    private static let output: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int, UInt8, UInt8) -> Int32 = {
        address, buffer, length, _, _ in
        guard let buffer, length > 0, let inbox = inbox(address) else { return 0 }
        inbox.append(.packet(Array(UnsafeRawBufferPointer(start: buffer, count: length))))
        return 0
    }

    /// The socket receive callback: a message, part of one, or a notification. usrsctp
    /// allocated `data` with malloc and hands it over.
    static let receive: @convention(c) (OpaquePointer?, sctp_sockstore, UnsafeMutableRawPointer?, Int, sctp_rcvinfo, Int32,
                                        UnsafeMutableRawPointer?) -> Int32 = {
        _, _, data, length, information, flags, address in
        defer { free(data) }
        // No data is the end of the stream after a graceful shutdown; SHUTDOWN_COMP said so.
        guard let data, let inbox = inbox(address) else { return 1 }
        let bytes = Array(UnsafeRawBufferPointer(start: data, count: length))
        if flags & Int32(MSG_NOTIFICATION) != 0 {
            inbox.append(.notification(bytes))
        } else {
            // The PPID is opaque to SCTP and travels in network byte order (RFC 6458 §5.3.2).
            inbox.append(.data(stream: information.rcv_sid, ppid: UInt32(bigEndian: information.rcv_ppid),
                               endOfRecord: flags & Int32(MSG_EOR) != 0, bytes: bytes))
        }
        return 1
    }

    /// usrsctp's own printf output, formatted by the shim. Debug level: a peer can make usrsctp
    /// print for every packet it sends ("NEW cum_ack ... is smaller or equal").
    private static let logLine: @convention(c) (UnsafePointer<CChar>?) -> Void = { line in
        guard let line else { return }
        var text = String(cString: line)
        while text.last?.isNewline == true { text.removeLast() }
        if !text.isEmpty { logger.debug(text) }
    }

    // MARK: The clock

    /// Each clock's last reading the timers were advanced to (nil before its first), and how
    /// many associations read it; a clock no association reads any more is forgotten.
    private struct ClockReading {
        var last: Double?
        var associations = 0
    }

    private static let clocks = Mutex<[SCTPClock: ClockReading]>([:])

    /// An association reads `clock` from now on.
    static func startReading(_ clock: SCTPClock) {
        clocks.withLock { $0[clock, default: ClockReading()].associations += 1 }
    }

    /// An association no longer reads `clock`.
    static func stopReading(_ clock: SCTPClock) {
        clocks.withLock { clocks in
            guard var reading = clocks[clock] else { return }
            reading.associations -= 1
            clocks[clock] = reading.associations > 0 ? reading : nil
        }
    }

    /// Advances usrsctp's timers by the time `clock` moved since its last reading, to `now`
    /// (seconds), and runs the ones that are due.
    ///
    /// usrsctp has one timer wheel for the whole process: each clock moves it by its own
    /// elapsed time (`SCTPClock` says why). A reading older than the clock's last (read before
    /// the caller waited for `entry`) runs nothing and changes nothing. Whole milliseconds are
    /// passed on; the rest carries over. One step is at most `Int32.max` milliseconds: usrsctp
    /// compares its ticks with wrap-around, so a longer one would put every timer weeks ahead.
    static func advanceTimers(to now: Double, on clock: SCTPClock) {
        ensureInitialized()
        let elapsed: UInt32 = clocks.withLock { clocks in
            // Only an association that reads the clock calls: it started reading it in its init.
            guard var reading = clocks[clock] else { return 0 }
            defer { clocks[clock] = reading }
            guard let previous = reading.last else {
                reading.last = now
                return 0
            }
            let milliseconds = ((now - previous) * 1000).rounded(.down)
            guard milliseconds >= 1 else { return 0 }
            let step = min(milliseconds, Double(Int32.max))
            reading.last = previous + step / 1000
            return UInt32(step)
        }
        // Outside the clocks' lock: the timers call back into inboxes, which take their own.
        if elapsed > 0 {
            entry.lock()
            usrsctp_handle_timers(elapsed)
            entry.unlock()
        }
    }
}
