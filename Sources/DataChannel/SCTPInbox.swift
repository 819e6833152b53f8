import Synchronization

/// What usrsctp's callbacks left for one association, in the order they ran.
///
/// usrsctp calls back on whichever thread is inside it: the owner's during `conninput` and
/// `sendv`, but any thread's during `usrsctp_handle_timers`, which runs every association's
/// timers. So the callbacks only append here, under a lock, and the owner takes the items on
/// its next call. The lock is never held while calling into usrsctp.
final class SCTPInbox: Sendable {
    /// One thing a callback reported.
    enum Item: Sendable {
        /// An SCTP packet to send to the peer.
        case packet([UInt8])
        /// Some or all (`endOfRecord`) of a message on a stream; `ppid` in host order.
        case data(stream: UInt16, ppid: UInt32, endOfRecord: Bool, bytes: [UInt8])
        /// A notification (`union sctp_notification`, host byte order).
        case notification([UInt8])
    }

    private let items = Mutex<[Item]>([])

    func append(_ item: Item) {
        items.withLock { $0.append(item) }
    }

    /// Everything reported so far, oldest first, leaving the inbox empty.
    func take() -> [Item] {
        items.withLock { items in
            defer { items = [] }
            return items
        }
    }
}
