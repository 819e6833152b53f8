import Net
import STUN

/// The client side of ICE: a full agent in the controlling role (RFC 8445 §6.1, §7.2) that checks
/// the remote candidates (a lite server has one host candidate; several are tried in priority
/// order, paced by Ta), nominates one, then keeps consent (RFC 7675).
///
/// A struct driven by its owner: `start`, then `receive` for each STUN datagram and `poll` at
/// `nextDeadline`, time injected as seconds. It owns no socket.
///
/// - Checks carry USERNAME `remoteUfrag:localUfrag`, PRIORITY (of a peer-reflexive candidate, RFC
///   8445 §7.1.1), ICE-CONTROLLING with the tiebreaker, USE-CANDIDATE when nominating,
///   MESSAGE-INTEGRITY keyed with the remote password and FINGERPRINT, and are retransmitted on RFC
///   8489 §6.2.1's timers.
/// - A response counts when its transaction ID is pending, its MESSAGE-INTEGRITY verifies with the
///   remote password, it has XOR-MAPPED-ADDRESS, and it came from the address the check went to
///   (RFC 8445 §7.2.5.2.1). Authenticated error responses fail the pair, except 487, which switches
///   role and checks again (§7.2.5.1). Unauthenticated ones (a 401 to a wrong password has no
///   MESSAGE-INTEGRITY) are discarded and retransmission goes on (RFC 8489 §9.1.4, as aioice
///   does); if the checks then time out, the failure is `.unauthenticated`.
/// - Once connected, a consent check goes every 4–6 s, each sent once (RFC 7675 §5.1); with no
///   authenticated answer for 30 s the agent fails with `.consentLost`.
/// - The peer's own Binding requests are answered (a full peer sends them; a lite one does not),
///   with role conflicts resolved by tiebreaker (§7.3.1.1) and triggered checks (§7.3.1.4).
public struct ICEControllingAgent: Sendable {
    /// Where the agent is.
    public enum State: Sendable, Equatable {
        /// Before `start`.
        case new
        /// Checks are running (also after an ICE restart).
        case checking
        /// A nominated pair works; media goes to this address.
        case connected(SocketAddress)
        /// Nothing works any more, for this reason.
        case failed(ICEAgentFailure)
    }

    /// The PRIORITY every check carries: a peer-reflexive candidate's on component 1, 1862270975.
    public static let checkPriority = ICECandidate.priority(type: .peerReflexive)

    /// Where the agent is.
    public private(set) var state: State = .new
    /// Controlling, unless a role conflict with a full peer made it controlled.
    public private(set) var role: ICERole = .controlling
    /// This agent's ufrag and password, as in its offer.
    public private(set) var local: ICECredentials
    /// The peer's ufrag.
    public private(set) var remoteUfrag: String
    /// The peer's password: the key of the checks this agent sends.
    public private(set) var remotePwd: String
    /// The random 64-bit number that settles role conflicts (RFC 8445 §7.1.3).
    public let tiebreaker: UInt64
    /// Regular or aggressive nomination.
    public let nomination: ICENomination
    /// Retransmission, pacing and consent clocks.
    public let timers: ICETimers
    /// Where media goes: set on connection, kept through an ICE restart until the new checks connect.
    public private(set) var selectedAddress: SocketAddress?
    /// When the latest authenticated answer on the selected pair arrived.
    public private(set) var lastConsent: Double?

    private var random: any RandomNumberGenerator & Sendable
    private var pairs: [Pair] = []
    private var transactions: [Transaction] = []
    /// When the next waiting pair gets its first check (RFC 8445 §6.1.4.2 pacing).
    private var nextPacedCheck: Double?
    /// The pair whose USE-CANDIDATE check is in flight (regular nomination).
    private var nominating: SocketAddress?
    private var nextConsentCheck: Double?

    /// Pairs never grow past this, whatever the peer's checks teach (peer-reflexive candidates).
    static let maximumPairs = 32

    private enum PairState: Sendable {
        case waiting, inProgress, succeeded, failed
    }

    private struct Pair: Sendable {
        var remote: SocketAddress
        var priority: UInt32
        var state: PairState
        /// USE-CANDIDATE seen in the peer's check on this pair while this agent was controlled.
        var nominatedByPeer = false
        /// A check on this pair timed out after unauthenticated error responses.
        var rejectedUnauthenticated = false
    }

    private enum Purpose: Sendable, Equatable {
        case check(nominating: Bool)
        case consent
    }

    private struct Transaction: Sendable {
        var id: STUNTransactionID
        var remote: SocketAddress
        var purpose: Purpose
        var request: [UInt8]
        /// Whether the request claimed ICE-CONTROLLING: a 487 answer switches away from that role.
        var claimedControlling: Bool
        var firstSent: Double
        var transmissions: Int
        /// When to send again; nil after the last transmission, and for consent checks.
        var nextSend: Double?
        var giveUpAt: Double
        /// An error response without valid MESSAGE-INTEGRITY came, and was discarded.
        var sawUnauthenticatedError = false
    }

    /// An agent that will check `candidates` (UDP ones with IP addresses, highest priority first).
    /// `tiebreaker` and `random` (transaction IDs, consent jitter) default to the system's secure
    /// generator; tests pass seeded ones.
    public init(local: ICECredentials, remoteUfrag: String, remotePwd: String, candidates: [ICECandidate],
                tiebreaker: UInt64? = nil, nomination: ICENomination = .regular, timers: ICETimers = ICETimers(),
                random: any RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()) {
        self.local = local
        self.remoteUfrag = remoteUfrag
        self.remotePwd = remotePwd
        self.nomination = nomination
        self.timers = timers
        self.random = random
        self.tiebreaker = tiebreaker ?? self.random.next()
        pairs = Self.pairs(from: candidates)
    }

    private static func pairs(from candidates: [ICECandidate]) -> [Pair] {
        var seen: Set<SocketAddress> = []
        let usable = candidates.enumerated()
            .filter { $0.element.isUDP && $0.element.component == 1 && $0.element.socketAddress != nil }
            .sorted { ($0.element.priority, -$0.offset) > ($1.element.priority, -$1.offset) }
        return usable.compactMap { entry in
            guard let address = entry.element.socketAddress, seen.insert(address).inserted else { return nil }
            return Pair(remote: address, priority: entry.element.priority, state: .waiting)
        }.prefix(maximumPairs).map { $0 }
    }

    // MARK: Events

    /// Sends the first check. Later pairs follow, paced, from `poll`.
    public mutating func start(now: Double) -> [ICEAgentAction] {
        guard state == .new else { return [] }
        return beginChecks(now: now)
    }

    /// Handles one datagram from `address`: a response to one of this agent's checks, or the peer's
    /// own Binding request. Anything else is ignored.
    public mutating func receive(_ bytes: [UInt8], from address: SocketAddress, now: Double) -> [ICEAgentAction] {
        if case .failed = state { return [] }
        switch BindingRequests.classify(bytes, local: local, remoteUfrag: remoteUfrag) {
        case .ignore: return []
        case .reject(let response): return [.send(response, to: address)]
        case .request(let request): return answer(request, from: address, now: now)
        case .response(let response): return handle(response, from: address, now: now)
        }
    }

    /// Retransmits, gives up on silent checks, starts paced checks, sends consent checks and ends
    /// consent, as the clock says.
    public mutating func poll(now: Double) -> [ICEAgentAction] {
        switch state {
        case .new, .failed: return []
        case .checking, .connected: break
        }
        if case .connected = state, let last = lastConsent, now >= last + timers.consentTimeout { return fail(.consentLost) }
        var actions: [ICEAgentAction] = []
        var expired: [Transaction] = []
        transactions.removeAll { transaction in
            guard now >= transaction.giveUpAt else { return false }
            expired.append(transaction)
            return true
        }
        for index in transactions.indices {
            guard let due = transactions[index].nextSend, now >= due else { continue }
            actions.append(.send(transactions[index].request, to: transactions[index].remote))
            transactions[index].transmissions += 1
            let transaction = transactions[index]
            if transaction.transmissions >= timers.maxTransmissions {
                transactions[index].nextSend = nil
                transactions[index].giveUpAt = now + timers.finalWaitMultiplier * timers.initialRTO
            } else {
                // Late polls send once and keep to the schedule rather than bunching retransmissions.
                var next = timers.sendTime(transaction.transmissions, start: transaction.firstSent)
                if next <= now { next = now + timers.initialRTO }
                transactions[index].nextSend = next
            }
        }
        for transaction in expired { actions += checkFailed(transaction, now: now) }
        if state == .checking, let due = nextPacedCheck, now >= due {
            if let index = pairs.firstIndex(where: { $0.state == .waiting }) {
                actions.append(startCheck(on: index, nominating: nomination == .aggressive && role == .controlling, now: now))
            }
            nextPacedCheck = pairs.contains { $0.state == .waiting } ? now + timers.pacing : nil
            actions += advance(now: now)
        }
        if case .connected(let address) = state, let due = nextConsentCheck, now >= due {
            actions.append(startConsentCheck(to: address, now: now))
            nextConsentCheck = now + jitteredConsentInterval()
        }
        return actions
    }

    /// ICE restart (RFC 8445 §9): new remote credentials and candidates (and new local
    /// credentials, when the new offer carried them). Pending checks are dropped and checking starts
    /// again at once; media may stay on `selectedAddress` until the new checks connect.
    public mutating func restart(local: ICECredentials? = nil, remoteUfrag: String, remotePwd: String,
                                 candidates: [ICECandidate], now: Double) -> [ICEAgentAction] {
        if let local { self.local = local }
        self.remoteUfrag = remoteUfrag
        self.remotePwd = remotePwd
        pairs = Self.pairs(from: candidates)
        transactions.removeAll()
        nominating = nil
        nextConsentCheck = nil
        lastConsent = nil
        role = .controlling
        return beginChecks(now: now)
    }

    /// When `poll` next has something to do; nil before `start` and after failure.
    public var nextDeadline: Double? {
        switch state {
        case .new, .failed: return nil
        case .checking, .connected: break
        }
        var deadlines = transactions.flatMap { [$0.nextSend, $0.giveUpAt].compactMap { $0 } }
        if let nextPacedCheck { deadlines.append(nextPacedCheck) }
        if case .connected = state {
            if let nextConsentCheck { deadlines.append(nextConsentCheck) }
            if let lastConsent { deadlines.append(lastConsent + timers.consentTimeout) }
        }
        return deadlines.min()
    }

    // MARK: Checks

    private mutating func beginChecks(now: Double) -> [ICEAgentAction] {
        state = .checking
        guard "\(remoteUfrag):\(local.ufrag)".utf8.count <= 513 else { return fail(.invalidCredentials) }
        guard !pairs.isEmpty else { return fail(.noCandidates) }
        let first = startCheck(on: 0, nominating: nomination == .aggressive, now: now)
        nextPacedCheck = pairs.contains { $0.state == .waiting } ? now + timers.pacing : nil
        return [first]
    }

    private func makeRequest(_ id: STUNTransactionID, nominating: Bool) -> [UInt8] {
        var attributes: [STUNAttribute] = [.username("\(remoteUfrag):\(local.ufrag)"), .priority(Self.checkPriority)]
        attributes.append(role == .controlling ? .iceControlling(tiebreaker) : .iceControlled(tiebreaker))
        if nominating, role == .controlling { attributes.append(.useCandidate) }
        let request = STUNMessage(type: .bindingRequest, transactionID: id, attributes: attributes)
        // Cannot throw: beginChecks refused a USERNAME over 513 bytes, and the rest are fixed-size.
        return (try? request.marshal(integrityKey: Array(remotePwd.utf8), fingerprint: true)) ?? []
    }

    private mutating func startCheck(on index: Int, nominating: Bool, now: Double) -> ICEAgentAction {
        let id = STUNTransactionID(using: &random)
        let request = makeRequest(id, nominating: nominating)
        let remote = pairs[index].remote
        transactions.append(Transaction(
            id: id, remote: remote, purpose: .check(nominating: nominating), request: request,
            claimedControlling: role == .controlling, firstSent: now, transmissions: 1,
            nextSend: timers.maxTransmissions > 1 ? timers.sendTime(1, start: now) : nil,
            giveUpAt: timers.giveUpTime(start: now)))
        if pairs[index].state != .succeeded { pairs[index].state = .inProgress }
        return .send(request, to: remote)
    }

    private mutating func startConsentCheck(to remote: SocketAddress, now: Double) -> ICEAgentAction {
        let id = STUNTransactionID(using: &random)
        // Like libwebrtc, consent checks repeat USE-CANDIDATE, which keeps a lite server on this pair.
        let request = makeRequest(id, nominating: true)
        transactions.append(Transaction(
            id: id, remote: remote, purpose: .consent, request: request, claimedControlling: role == .controlling,
            firstSent: now, transmissions: 1, nextSend: nil, giveUpAt: now + timers.consentTimeout))
        return .send(request, to: remote)
    }

    private mutating func jitteredConsentInterval() -> Double {
        timers.consentInterval * Double.random(in: 0.8...1.2, using: &random)
    }

    /// Matches a response to a pending check and acts on it (RFC 8445 §7.2.5, RFC 8489 §6.3.3–6.3.4).
    private mutating func handle(_ response: STUNMessage, from address: SocketAddress, now: Double) -> [ICEAgentAction] {
        guard let index = transactions.firstIndex(where: { $0.id == response.transactionID }) else { return [] }
        if response.fingerprint != nil, !response.verifyFingerprint() { return [] }
        let authenticated = response.messageIntegrity != nil && response.verifyIntegrity(key: Array(remotePwd.utf8))
        // RFC 8489 §9.1.4: over UDP, a response that is not authenticated is discarded as if never
        // received, so retransmissions go on; an error response is remembered, to name the failure.
        guard authenticated else {
            if response.type.messageClass == .errorResponse { transactions[index].sawUnauthenticatedError = true }
            return []
        }
        let transaction = transactions[index]
        switch response.type.messageClass {
        case .successResponse:
            guard response.xorMappedAddress != nil else { return [] }
            transactions.remove(at: index)
            // RFC 8489 §6.3.3: unknown comprehension-required attributes fail the transaction;
            // RFC 8445 §7.2.5.2.1: so does an answer from another address than the check went to.
            guard response.unknownComprehensionRequired.isEmpty, address == transaction.remote else {
                return checkFailed(transaction, now: now)
            }
            return checkSucceeded(transaction, now: now)
        case .errorResponse:
            transactions.remove(at: index)
            if response.errorCode?.code == STUNErrorCode.roleConflict.code, case .check = transaction.purpose, state == .checking,
               let pairIndex = pairs.firstIndex(where: { $0.remote == transaction.remote }) {
                // RFC 8445 §7.2.5.1: take the other role than the request claimed, and check again.
                role = transaction.claimedControlling ? .controlled : .controlling
                if nominating == transaction.remote { nominating = nil }
                pairs[pairIndex].state = .waiting
                return [startCheck(on: pairIndex, nominating: nomination == .aggressive && role == .controlling, now: now)]
            }
            return checkFailed(transaction, now: now)
        case .request, .indication:
            return []
        }
    }

    private mutating func checkSucceeded(_ transaction: Transaction, now: Double) -> [ICEAgentAction] {
        guard let index = pairs.firstIndex(where: { $0.remote == transaction.remote }) else { return [] }
        switch transaction.purpose {
        case .consent:
            // RFC 7675 §5.1: any authenticated answer refreshes consent, even to an older check.
            if transaction.remote == selectedAddress, case .connected = state { lastConsent = now }
            return []
        case .check(let nominating):
            pairs[index].state = .succeeded
            guard state == .checking else { return [] }
            if nominating, transaction.claimedControlling, role == .controlling { return connect(index, now: now) }
            if role == .controlled, pairs[index].nominatedByPeer { return connect(index, now: now) }
            return advance(now: now)
        }
    }

    private mutating func checkFailed(_ transaction: Transaction, now: Double) -> [ICEAgentAction] {
        guard case .check = transaction.purpose, let index = pairs.firstIndex(where: { $0.remote == transaction.remote }) else {
            return []
        }
        if transaction.sawUnauthenticatedError { pairs[index].rejectedUnauthenticated = true }
        // A newer check on the pair (after a 487 or a triggered check) decides its state instead.
        guard !transactions.contains(where: { $0.remote == transaction.remote && $0.purpose != .consent }) else { return [] }
        pairs[index].state = .failed
        if nominating == transaction.remote { nominating = nil }
        return advance(now: now)
    }

    /// Nominates when regular nomination has a working pair, and fails when nothing is left to try.
    private mutating func advance(now: Double) -> [ICEAgentAction] {
        guard state == .checking else { return [] }
        if role == .controlling, nomination == .regular, nominating == nil,
           let best = pairs.firstIndex(where: { $0.state == .succeeded }) {
            nominating = pairs[best].remote
            return [startCheck(on: best, nominating: true, now: now)]
        }
        let pending = pairs.contains { $0.state == .waiting || $0.state == .inProgress }
            || transactions.contains { $0.purpose != .consent }
        guard !pending else { return [] }
        // Controlled, a working pair waits for the peer's nomination.
        if role == .controlled, pairs.contains(where: { $0.state == .succeeded }) { return [] }
        return fail(pairs.contains { $0.rejectedUnauthenticated } ? .unauthenticated : .checksFailed)
    }

    private mutating func connect(_ index: Int, now: Double) -> [ICEAgentAction] {
        let address = pairs[index].remote
        state = .connected(address)
        selectedAddress = address
        lastConsent = now
        nominating = nil
        nextPacedCheck = nil
        transactions.removeAll()
        nextConsentCheck = now + jitteredConsentInterval()
        return [.connected(address)]
    }

    private mutating func fail(_ failure: ICEAgentFailure) -> [ICEAgentAction] {
        state = .failed(failure)
        selectedAddress = nil
        transactions.removeAll()
        nextPacedCheck = nil
        nextConsentCheck = nil
        nominating = nil
        return [.failed(failure)]
    }

    // MARK: The peer's checks

    /// Answers an authenticated Binding request from a full peer (RFC 8445 §7.3.1).
    private mutating func answer(_ request: AuthenticatedRequest, from address: SocketAddress, now: Double) -> [ICEAgentAction] {
        let key = Array(local.pwd.utf8)
        // RFC 8445 §7.3.1.1: the larger tiebreaker keeps its role; the smaller one switches.
        let conflict = STUNErrorCode.roleConflict
        switch role {
        case .controlling:
            if let theirs = request.controlling {
                if tiebreaker >= theirs {
                    return [.send(BindingRequests.errorResponse(conflict, method: .binding,
                                                                transactionID: request.message.transactionID, key: key),
                                  to: address)]
                }
                role = .controlled
            }
        case .controlled:
            if let theirs = request.controlled {
                if tiebreaker >= theirs {
                    role = .controlling
                } else {
                    return [.send(BindingRequests.errorResponse(conflict, method: .binding,
                                                                transactionID: request.message.transactionID, key: key),
                                  to: address)]
                }
            }
        }
        var actions: [ICEAgentAction] = [
            .send(BindingRequests.successResponse(to: request.message, source: address, key: key), to: address),
        ]
        guard state == .checking else { return actions }
        // RFC 8445 §7.3.1.3–7.3.1.4: a check from an unknown address teaches a peer-reflexive
        // candidate; a check on a pair not yet working triggers a check back at once.
        var index = pairs.firstIndex { $0.remote == address }
        if index == nil, pairs.count < Self.maximumPairs {
            pairs.append(Pair(remote: address, priority: request.priority, state: .waiting))
            index = pairs.count - 1
        }
        guard let index else { return actions }
        if role == .controlled, request.useCandidate { pairs[index].nominatedByPeer = true }
        switch pairs[index].state {
        case .waiting, .failed:
            actions.append(startCheck(on: index, nominating: nomination == .aggressive && role == .controlling, now: now))
        case .inProgress:
            break
        case .succeeded:
            // RFC 8445 §7.3.1.5: controlled, a nomination of a working pair completes ICE.
            if role == .controlled, pairs[index].nominatedByPeer { actions += connect(index, now: now) }
        }
        return actions
    }
}
