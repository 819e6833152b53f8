#if canImport(Glibc)
import Glibc
#endif
import COpenSSL
import SRTP

/// One DTLS 1.2 association (RFC 6347) for DTLS-SRTP (RFC 5764), over OpenSSL with memory BIOs:
/// datagrams in, actions out, no socket inside.
///
/// Owns an `SSL` (freed in `deinit`) with its two memory BIOs (the `SSL` owns those and frees them
/// with itself), on a shared `DTLSContext`. The room server is always `.server` (passive, RFC 5763
/// §5); Revue's SDK and recorder are `.client`.
///
/// Not thread-safe: one owner calls it, one event at a time. Time is the caller's (`now`, in
/// seconds on any monotonic clock): `nextTimeout` says when to call `handleTimeout(now:)`.
///
/// OpenSSL 3.0 times retransmissions on its own clock as well, so it retransmits only when both
/// clocks say the timer has run out; with the same clock that is the same moment. It counts
/// anything under 15 ms as run out.
public final class DTLSSession {
    /// Which side of the handshake this is (RFC 5763 §5: `a=setup:active` is the client).
    public enum Role: Sendable, Equatable {
        /// Sends the ClientHello (`a=setup:active`).
        case client
        /// Waits for it (`a=setup:passive`).
        case server
    }

    /// Where the session is.
    public enum State: Sendable, Equatable {
        /// A client before `start`, or a server before its first datagram.
        case idle
        /// Flights are being exchanged.
        case handshaking
        /// Keys exported, fingerprint checked.
        case connected
        /// close_notify was sent or received.
        case closed
        /// The handshake or the connection failed (reported once, as `.failed`).
        case failed
    }

    /// Which side of the handshake this is.
    public let role: Role
    /// The shared settings and certificate.
    public let context: DTLSContext
    /// The peer's fingerprints from its SDP; its certificate must match one of them.
    public let remoteFingerprints: [DTLSFingerprint]
    /// The largest datagram this side sends (records are never split across datagrams).
    public let mtu: Int
    /// How long to wait before sending a flight again.
    public let retransmission: DTLSRetransmission
    /// Where the session is.
    public private(set) var state: State = .idle
    /// When `handleTimeout(now:)` should be called next, on the caller's clock; nil when no
    /// retransmission timer runs (before the first flight and once connected).
    public private(set) var nextTimeout: Double?
    /// The keys `.connected` carried.
    public private(set) var keys: DTLSKeys?
    /// The SHA-256 fingerprint of the certificate the peer presented, once the handshake is done.
    public private(set) var remoteCertificateFingerprint: DTLSFingerprint?
    /// The negotiated cipher suite's OpenSSL name, once connected.
    public private(set) var cipherSuite: String?
    /// Datagrams dropped before OpenSSL because they were not well-formed DTLS records.
    public private(set) var discardedDatagrams = 0
    /// Why the last of those was dropped.
    public private(set) var lastDiscardReason: DTLSRecordError?
    /// Flights this side sent again.
    public private(set) var retransmissions = 0

    private let ssl: OpaquePointer
    private let outgoing: OpaquePointer
    private let incoming: OpaquePointer
    /// The wait OpenSSL's timer callback chose during the current call, if it was called.
    private var armedDuration: Double?

    /// Sets up a session; nothing is sent until `start(now:)` (client) or the first datagram (server).
    /// - Parameters:
    ///   - remoteFingerprints: every `a=fingerprint` the peer's SDP gave with a supported hash
    ///     (at least one).
    ///   - mtu: the largest datagram to send; 1200 fits any path WebRTC uses.
    public init(context: DTLSContext, role: Role, remoteFingerprints: [DTLSFingerprint], mtu: Int = 1200,
                retransmission: DTLSRetransmission = .standard) throws(DTLSError)
    {
        guard !remoteFingerprints.isEmpty else {
            throw DTLSError.setup.with("no remote fingerprint: the peer's certificate could not be authenticated")
        }
        // OpenSSL refuses MTUs under 256 (dtls1_link_min_mtu); 65507 is the largest UDP payload.
        guard (256...65_507).contains(mtu) else { throw DTLSError.setup.with("MTU \(mtu) is not in 256...65507") }
        guard let ssl = SSL_new(context.context) else {
            throw DTLSError.setup.with("SSL_new failed: \(OpenSSLLibrary.errors())")
        }
        guard let incoming = BIO_new(BIO_s_mem()), let outgoing = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            throw DTLSError.setup.with("BIO_new failed")
        }
        // The SSL owns both BIOs from here and frees them with itself.
        SSL_set_bio(ssl, incoming, outgoing)
        switch role {
        case .client: SSL_set_connect_state(ssl)
        case .server: SSL_set_accept_state(ssl)
        }
        // Both, as OpenSSL reads link_mtu once and then keeps mtu; SSL_OP_NO_QUERY_MTU (the
        // context's) stops it asking the BIO, which has no path MTU.
        guard revue_ssl_set_mtu(ssl, mtu) > 0, revue_dtls_set_link_mtu(ssl, mtu) == 1 else {
            SSL_free(ssl)
            throw DTLSError.setup.with("cannot set the DTLS MTU to \(mtu)")
        }
        DTLS_set_timer_cb(ssl) { ssl, previous in
            guard let ssl, let session = SSL_get_ex_data(ssl, 0) else { return 1_000_000 }
            return Unmanaged<DTLSSession>.fromOpaque(session).takeUnretainedValue().timerStarted(previous: previous)
        }
        self.ssl = ssl
        self.incoming = incoming
        self.outgoing = outgoing
        self.context = context
        self.role = role
        self.remoteFingerprints = remoteFingerprints
        self.mtu = mtu
        self.retransmission = retransmission
        // Unretained: the SSL, and so any callback, never outlives this object.
        SSL_set_ex_data(ssl, 0, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        SSL_free(ssl)
    }

    /// Starts the handshake. A client returns its ClientHello; a server returns nothing and waits.
    public func start(now: Double) -> [DTLSAction] {
        guard state == .idle else { return [] }
        state = .handshaking
        guard role == .client else { return [] }
        return advance(now: now)
    }

    /// Feeds one datagram from the peer (RFC 7983: first byte 20...63). Malformed datagrams are
    /// counted in `discardedDatagrams` and dropped before OpenSSL sees them.
    public func receive(_ datagram: [UInt8], now: Double) -> [DTLSAction] {
        switch state {
        case .closed, .failed: return []
        // A client has sent nothing yet, so nothing can be an answer.
        case .idle where role == .client: return []
        case .idle, .handshaking, .connected: break
        }
        do {
            _ = try DTLSRecordHeader.parseDatagram(datagram)
        } catch {
            return discard(error)
        }
        if state == .idle { state = .handshaking }
        let written = datagram.withUnsafeBytes { BIO_write(incoming, $0.baseAddress, Int32($0.count)) }
        guard written == Int32(datagram.count) else { return [] }
        return advance(now: now)
    }

    /// Retransmits the last flight if the timer has run out (RFC 6347 §4.2.4). Call it at
    /// `nextTimeout`; an early call does nothing.
    public func handleTimeout(now: Double) -> [DTLSAction] {
        guard state == .handshaking, let deadline = nextTimeout, now >= deadline else { return [] }
        armedDuration = nil
        ERR_clear_error()
        let result = revue_dtls_handle_timeout(ssl)
        var actions = drainOutput()
        if result < 0 {
            // The timer ran out once more, but OpenSSL gave up instead of sending.
            retransmissions -= 1
            fail(DTLSError.timedOut.with("no answer after \(retransmissions) retransmissions: \(OpenSSLLibrary.errors())"),
                 into: &actions)
            return actions
        }
        updateTimer(now: now)
        return actions
    }

    /// Sends application data (SCTP packets) as one record. Keep it under the MTU less the record
    /// overhead (about 40 bytes), or the datagram will be larger than `mtu`.
    public func send(applicationData: [UInt8]) throws(DTLSError) -> [DTLSAction] {
        guard state == .connected else { throw DTLSError.notConnected }
        guard !applicationData.isEmpty else { return [] }
        ERR_clear_error()
        let written = applicationData.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
        guard written == Int32(applicationData.count) else {
            state = .failed
            throw DTLSError.connectionFailed.with("SSL_write failed: \(OpenSSLLibrary.errors())")
        }
        return drainOutput()
    }

    /// Ends the session: sends close_notify if connected (RFC 5246 §7.2.1), then `.closed`.
    public func close() -> [DTLSAction] {
        switch state {
        case .closed, .failed: return []
        case .idle, .handshaking:
            state = .closed
            nextTimeout = nil
            return [.closed]
        case .connected:
            ERR_clear_error()
            _ = SSL_shutdown(ssl)
            state = .closed
            return drainOutput() + [.closed]
        }
    }

    // MARK: Driving OpenSSL

    /// Runs the handshake or reads records, whichever the state calls for, and collects what
    /// OpenSSL wrote and what happened.
    private func advance(now: Double) -> [DTLSAction] {
        armedDuration = nil
        ERR_clear_error()
        var actions: [DTLSAction] = []
        if state == .handshaking {
            let result = SSL_do_handshake(ssl)
            if result == 1 {
                actions += drainOutput()
                finishHandshake(into: &actions)
            } else {
                let error = SSL_get_error(ssl, result)
                actions += drainOutput()
                if error != SSL_ERROR_WANT_READ && error != SSL_ERROR_WANT_WRITE {
                    let reason = OpenSSLLibrary.errors()
                    let failure = reason.contains("timeout") ? DTLSError.timedOut : DTLSError.handshakeFailed
                    fail(failure.with("handshake failed: \(reason)"), into: &actions)
                }
            }
        }
        // The datagram that finished the handshake may carry application data after it.
        if state == .connected { readApplicationData(into: &actions) }
        updateTimer(now: now)
        return actions
    }

    /// Checks the peer's certificate against the SDP fingerprints, then exports the SRTP keys
    /// (RFC 5764 §4.2) and reports `.connected`.
    private func finishHandshake(into actions: inout [DTLSAction]) {
        guard let peer = SSL_get1_peer_certificate(ssl) else {
            fail(DTLSError.fingerprintMismatch.with("the peer sent no certificate"), into: &actions)
            return
        }
        defer { X509_free(peer) }
        remoteCertificateFingerprint = DTLSCertificate.digest(peer, .sha256)
        let matches = remoteFingerprints.contains { DTLSCertificate.digest(peer, $0.algorithm) == $0 }
        guard matches else {
            // The peer finished its handshake too; close_notify tells it not to wait.
            _ = SSL_shutdown(ssl)
            actions += drainOutput()
            let presented = remoteCertificateFingerprint.map(\.description) ?? "an unreadable certificate"
            let expected = remoteFingerprints.map(\.description).joined(separator: " or ")
            fail(DTLSError.fingerprintMismatch.with("the peer's certificate is \(presented), the SDP said \(expected)"),
                 into: &actions)
            return
        }
        guard let selected = SSL_get_selected_srtp_profile(ssl),
              let profile = SRTPProtectionProfile(id: UInt16(truncatingIfNeeded: selected.pointee.id))
        else {
            fail(DTLSError.noSRTPProfile.with("the peer offered none of \(context.profiles.map(\.openSSLName))"), into: &actions)
            return
        }
        var material = [UInt8](repeating: 0, count: 2 * (profile.masterKeyLength + profile.masterSaltLength))
        let label = "EXTRACTOR-dtls_srtp"
        let exported = material.withUnsafeMutableBufferPointer { buffer in
            SSL_export_keying_material(ssl, buffer.baseAddress, buffer.count, label, label.utf8.count, nil, 0, 0)
        }
        defer { for index in material.indices { material[index] = 0 } }
        guard exported == 1, let keys = DTLSKeys(profile: profile, exportedKeyingMaterial: material, role: role) else {
            fail(DTLSError.handshakeFailed.with("SSL_export_keying_material failed: \(OpenSSLLibrary.errors())"), into: &actions)
            return
        }
        if let cipher = SSL_get_current_cipher(ssl), let name = SSL_CIPHER_get_name(cipher) { cipherSuite = String(cString: name) }
        self.keys = keys
        state = .connected
        actions.append(.connected(keys))
    }

    /// Reads every record OpenSSL has: application data, or close_notify.
    private func readApplicationData(into actions: inout [DTLSAction]) {
        while state == .connected {
            var error: Int32 = 0
            let data = [UInt8](unsafeUninitializedCapacity: DTLSRecordHeader.maximumLength) { buffer, initialized in
                let count = SSL_read(ssl, buffer.baseAddress, Int32(buffer.count))
                initialized = max(0, Int(count))
                if count <= 0 { error = SSL_get_error(ssl, count) }
            }
            if !data.isEmpty {
                actions.append(.applicationData(data))
                continue
            }
            switch error {
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
                actions += drainOutput()
                return
            case SSL_ERROR_ZERO_RETURN:
                state = .closed
                actions += drainOutput()
                actions.append(.closed)
            default:
                actions += drainOutput()
                fail(DTLSError.connectionFailed.with("reading a record failed: \(OpenSSLLibrary.errors())"), into: &actions)
            }
        }
    }

    /// Takes what OpenSSL wrote and packs whole records into datagrams of at most `mtu` bytes
    /// (RFC 6347 §4.1.1 allows several records per datagram; a memory BIO keeps no boundaries).
    ///
    /// Records of different versions never share a datagram: OpenSSL drops the rest of a
    /// datagram after a record whose version is not the negotiated one, so a retransmitted
    /// ClientHello (version 0xFEFF) packed before the next flight would lose that flight.
    private func drainOutput() -> [DTLSAction] {
        let pending = Int(BIO_ctrl_pending(outgoing))
        guard pending > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: pending)
        let read = bytes.withUnsafeMutableBytes { BIO_read(outgoing, $0.baseAddress, Int32($0.count)) }
        guard read > 0 else { return [] }
        bytes.removeLast(pending - Int(read))
        var datagrams: [DTLSAction] = []
        var datagram: [UInt8] = []
        var datagramVersion: UInt16?
        var offset = 0
        while offset < bytes.count {
            // OpenSSL writes whole records; should one not parse, the rest goes out as it is.
            let header = try? DTLSRecordHeader(parsing: bytes, at: offset)
            let end = header.map { offset + DTLSRecordHeader.size + Int($0.length) } ?? bytes.count
            if !datagram.isEmpty && (datagram.count + (end - offset) > mtu || header?.version != datagramVersion) {
                datagrams.append(.send(datagram))
                datagram = []
            }
            datagramVersion = header?.version
            datagram += bytes[offset..<end]
            offset = end
        }
        if !datagram.isEmpty { datagrams.append(.send(datagram)) }
        return datagrams
    }

    // MARK: Retransmission timer

    /// OpenSSL's timer callback (`DTLS_set_timer_cb`): the wait for the flight just sent, in
    /// microseconds. `previous` is 0 for a new flight and the last wait for a retransmission.
    private func timerStarted(previous: UInt32) -> UInt32 {
        if previous > 0 { retransmissions += 1 }
        let wait = retransmission.next(after: Double(previous) / 1_000_000)
        armedDuration = wait
        return UInt32(min(wait * 1_000_000, Double(UInt32.max)))
    }

    /// Sets `nextTimeout` after a call: the wait OpenSSL just chose from `now`, or, if it chose
    /// none, what it says is left.
    private func updateTimer(now: Double) {
        guard state == .handshaking else {
            nextTimeout = nil
            return
        }
        var left = timeval()
        guard revue_dtls_get_timeout(ssl, &left) == 1 else {
            nextTimeout = nil
            return
        }
        if let armedDuration {
            nextTimeout = now + armedDuration
        } else if nextTimeout == nil || now >= (nextTimeout ?? now) {
            nextTimeout = now + Double(left.tv_sec) + Double(left.tv_usec) / 1_000_000
        }
    }

    private func discard(_ reason: DTLSRecordError) -> [DTLSAction] {
        discardedDatagrams += 1
        lastDiscardReason = reason
        return []
    }

    private func fail(_ error: DTLSError, into actions: inout [DTLSAction]) {
        state = .failed
        nextTimeout = nil
        actions.append(.failed(error))
    }
}
