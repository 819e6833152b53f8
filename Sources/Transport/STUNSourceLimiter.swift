import Net

/// Blocks sources that keep sending connectivity checks the server must refuse.
///
/// A check that names a real connection's ufrag costs an HMAC to find wrong, and an error
/// response to answer (RFC 8489 §9.1.3). A source that fails `maxFailures` checks within a
/// second is not answered, nor its STUN read at all, for `blockSeconds`: it then costs a
/// dictionary lookup a datagram. A peer never fails its own checks, so only an attacker (or a
/// badly broken client) is blocked, and only from STUN: its other datagrams are routed as ever.
///
/// A state machine with time injected; at most `capacity` sources are tracked (sources are
/// forgotten once their window and block have passed, looked for at most once a second), so a
/// flood from many addresses costs bounded memory: past the capacity a new source is simply not
/// tracked. The transport never blocks an address a connection already uses.
struct STUNSourceLimiter {
    struct Entry {
        var windowStart: Double
        var failures: Int
        var blockedUntil: Double
    }

    let maxFailures: Int
    let blockSeconds: Double
    let capacity: Int
    private(set) var entries: [SocketAddress: Entry] = [:]
    /// Datagrams dropped because their source was blocked.
    private(set) var dropped = 0
    /// Sources that were blocked, ever.
    private(set) var blocks = 0
    /// When the table was last pruned: at most once a second, so a full table costs no scan per packet.
    private var lastPrune = -Double.infinity

    init(maxFailures: Int = 10, blockSeconds: Double = 10, capacity: Int = 4096) {
        self.maxFailures = maxFailures
        self.blockSeconds = blockSeconds
        self.capacity = capacity
    }

    /// Whether STUN from `source` is to be dropped unread (and counts it when it is).
    mutating func isBlocked(_ source: SocketAddress, now: Double) -> Bool {
        guard let entry = entries[source], now < entry.blockedUntil else { return false }
        dropped += 1
        return true
    }

    /// A check from `source` was refused.
    mutating func failed(_ source: SocketAddress, now: Double) {
        var entry = entries[source] ?? Entry(windowStart: now, failures: 0, blockedUntil: 0)
        if entries[source] == nil && entries.count >= capacity {
            if now >= lastPrune + 1 {
                lastPrune = now
                entries = entries.filter { now < $0.value.blockedUntil || now < $0.value.windowStart + 1 }
            }
            guard entries.count < capacity else { return }
        }
        if now >= entry.windowStart + 1 {
            entry.windowStart = now
            entry.failures = 0
        }
        entry.failures += 1
        if entry.failures >= maxFailures && now >= entry.blockedUntil {
            entry.blockedUntil = now + blockSeconds
            blocks += 1
        }
        entries[source] = entry
    }
}
