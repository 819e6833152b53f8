import Net
import STUN

/// The server side of ICE-lite (RFC 8445 §2.5, §7.3): answers the peer's Binding requests and
/// follows its nominations. It sends no checks of its own, and it is always the controlled agent.
///
/// A struct driven by its owner: `receive` for each STUN datagram, `poll` at `nextDeadline`, time
/// injected as seconds. It owns no socket.
///
/// - Answers come from the address the request reached (aioice refuses a "source address
///   mismatch"), with XOR-MAPPED-ADDRESS of the request's source.
/// - The first address that passes a check is selected at once, so DTLS can start before
///   nomination (aioice nominates only after a plain check), and a later USE-CANDIDATE on another
///   address moves the selection (Chromium re-nominates; libwebrtc also sets USE-CANDIDATE on
///   every consent check, which is harmless here).
/// - Consent (RFC 7675 §5.1): when no valid check arrived on the selected address for
///   `consentTimeout` seconds, `poll` reports `.consentExpired` once and forgets the pairs; a later
///   valid check selects again.
public struct ICELiteResponder: Sendable {
    /// One remote address that passed a check.
    public struct Pair: Sendable, Equatable {
        /// Where the checks came from.
        public let remote: SocketAddress
        /// The PRIORITY of its latest check.
        public var priority: UInt32
        /// When its latest valid check arrived.
        public var lastCheck: Double
        /// Whether the controlling peer sent USE-CANDIDATE on it.
        public var nominated: Bool

        /// A pair from its parts.
        public init(remote: SocketAddress, priority: UInt32, lastCheck: Double, nominated: Bool) {
            self.remote = remote
            self.priority = priority
            self.lastCheck = lastCheck
            self.nominated = nominated
        }
    }

    /// This server's ufrag and password, as in its SDP.
    public private(set) var local: ICECredentials
    /// The peer's ufrag from its SDP; when nil, any second half of USERNAME is accepted.
    public private(set) var remoteUfrag: String?
    /// How long consent lasts without a valid check (RFC 7675 §5.1: 30 s).
    public let consentTimeout: Double
    /// Every address that passed a check, with what was learned from it.
    public private(set) var pairs: [SocketAddress: Pair] = [:]
    /// Where media goes, if anywhere yet.
    public private(set) var selectedAddress: SocketAddress?
    /// When the latest valid check arrived, on any pair.
    public private(set) var lastValidCheck: Double?
    /// Requests answered with an error (bad USERNAME or MESSAGE-INTEGRITY, malformed): the
    /// transport blocks a source that keeps sending them.
    public private(set) var rejectedChecks = 0

    /// A responder for one peer. `remoteUfrag` comes from the peer's offer.
    public init(local: ICECredentials, remoteUfrag: String?, consentTimeout: Double = 30) {
        self.local = local
        self.remoteUfrag = remoteUfrag
        self.consentTimeout = consentTimeout
    }

    /// Handles one datagram that arrived from `address`. Anything but a Binding request is
    /// ignored (a lite agent sends no requests, so it expects no responses); a request gets a
    /// success or error response, and may change the selected address.
    public mutating func receive(_ bytes: [UInt8], from address: SocketAddress, now: Double) -> [ICELiteAction] {
        switch BindingRequests.classify(bytes, local: local, remoteUfrag: remoteUfrag) {
        case .ignore, .response:
            return []
        case .reject(let response):
            rejectedChecks += 1
            return [.send(response, to: address)]
        case .request(let request):
            // RFC 8445 §7.3.1.1: a lite agent cannot take the controlling role, so a peer that also
            // claims to be controlled is told of the conflict (authenticated, so with MESSAGE-INTEGRITY).
            if request.controlled != nil {
                return [.send(BindingRequests.errorResponse(.roleConflict, method: .binding,
                                                            transactionID: request.message.transactionID,
                                                            key: Array(local.pwd.utf8)), to: address)]
            }
            var actions: [ICELiteAction] = [
                .send(BindingRequests.successResponse(to: request.message, source: address, key: Array(local.pwd.utf8)),
                      to: address),
            ]
            var pair = pairs[address] ?? Pair(remote: address, priority: request.priority, lastCheck: now, nominated: false)
            pair.priority = request.priority
            pair.lastCheck = now
            // RFC 8445 §7.3.1.5: USE-CANDIDATE nominates; a nomination of another address re-nominates.
            if request.useCandidate { pair.nominated = true }
            pairs[address] = pair
            lastValidCheck = now
            if selectedAddress != address, request.useCandidate || selectedAddress == nil {
                selectedAddress = address
                actions.append(.selected(address))
            }
            return actions
        }
    }

    /// Ends consent when the selected address has been silent too long, and forgets other pairs
    /// that have.
    public mutating func poll(now: Double) -> [ICELiteAction] {
        pairs = pairs.filter { $0.key == selectedAddress || now < $0.value.lastCheck + consentTimeout }
        guard let selected = selectedAddress, let pair = pairs[selected], now >= pair.lastCheck + consentTimeout else { return [] }
        selectedAddress = nil
        pairs.removeAll()
        return [.consentExpired]
    }

    /// When `poll` next has something to do: the consent deadline of the selected address.
    public var nextDeadline: Double? {
        selectedAddress.flatMap { pairs[$0] }.map { $0.lastCheck + consentTimeout }
    }

    /// New credentials after an ICE restart (RFC 8445 §9). The selected address stays until the
    /// peer nominates under the new credentials or consent runs out.
    public mutating func restart(local: ICECredentials, remoteUfrag: String?) {
        self.local = local
        self.remoteUfrag = remoteUfrag
    }
}
