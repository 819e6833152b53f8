import DTLS
import Foundation
import Glibc
import ICE
import Log
import Net
import SDP
import Transport

/// The I/O around one client WebRTC connection to the room server, as the recorder's subscriber
/// connection and the publisher's connection both need it: a UDP socket, a DTLS certificate,
/// local ICE credentials, and the `ClientPeerConnection` once the server's SDP says where to
/// connect. It sends what the connection asks to send and hands back everything else; the owner
/// runs it on its one thread.
public final class ClientLink {
    public let udp: UDPSocket
    public let context: DTLSContext
    public private(set) var credentials = ICECredentials.random()
    public private(set) var connection: ClientPeerConnection?
    private var batch = DatagramBatch()
    private let logger: Logger

    public init(logger: Logger) throws {
        udp = try UDPSocket(bind: SocketAddress(ip: .anyV4, port: 0))
        context = try DTLSContext(certificate: try DTLSCertificate())
        self.logger = logger
    }

    /// Our side for SDP: ICE credentials and the certificate's fingerprint, and no candidates:
    /// the server is ICE-lite and learns our address from our checks (RFC 8445 §2.5).
    public var transport: TransportParameters {
        let fingerprint = context.certificate.fingerprint
        return TransportParameters(iceUfrag: credentials.ufrag, icePwd: credentials.pwd,
                                   fingerprints: [Fingerprint(hashFunction: fingerprint.algorithm.rawValue, value: fingerprint.value)],
                                   candidates: [])
    }

    /// Starts connecting to the server the first media section of its SDP describes (the whole
    /// BUNDLE: one transport). Later calls change nothing: one connection per link.
    public func connect(to description: SessionDescription, now: Double) throws {
        guard connection == nil else { return }
        guard let first = description.media.first(where: { !$0.isRejected }) ?? description.media.first,
              let ufrag = description.iceUfrag(of: first), let pwd = description.icePwd(of: first)
        else { throw RoomJoinError(message: "the server's SDP has no ICE credentials") }
        let candidates = first.candidates.compactMap { try? ICECandidate(parsing: $0) }
        let fingerprints = description.fingerprints(of: first).compactMap { try? DTLSFingerprint(algorithm: $0.hashFunction, value: $0.value) }
        let made = try ClientPeerConnection(local: credentials, remoteUfrag: ufrag, remotePwd: pwd, candidates: candidates,
                                            remoteFingerprints: fingerprints, context: context, logger: logger)
        connection = made
        send(made.start(now: now))
    }

    /// Whether SRTP is up.
    public var isConnected: Bool { connection?.state == .connected }

    /// When the connection next needs `poll` (ICE pacing, consent, DTLS retransmission).
    public var nextDeadline: Double? { connection?.nextDeadline }

    /// Runs the connection's timers if they are due.
    public func poll(now: Double) {
        if let connection, let due = connection.nextDeadline, due <= now { send(connection.poll(now: now)) }
    }

    /// Reads every waiting datagram; what is not for sending (decrypted RTP and RTCP, state
    /// changes, DTLS application data) goes to `handle`.
    public func receive(now: Double, _ handle: (ClientPeerConnection.Event) -> Void) {
        guard let connection else { return }
        while udp.receive(into: &batch) > 0 {
            for index in 0..<batch.count {
                let (bytes, source) = batch.datagram(index)
                guard let source else { continue }
                for event in connection.receive(Array(bytes), from: source, now: now) {
                    if case .send(let datagram, let address) = event { udp.send(datagram, to: address) } else { handle(event) }
                }
            }
        }
    }

    /// Sends an RTP packet as SRTP; false when the connection is not up.
    @discardableResult
    public func sendRTP(_ packet: [UInt8]) -> Bool {
        guard let event = connection?.protectRTP(packet) else { return false }
        send([event])
        return true
    }

    /// Sends an RTCP compound packet as SRTCP; false when the connection is not up.
    @discardableResult
    public func sendRTCP(_ packet: [UInt8]) -> Bool {
        guard let event = connection?.protectRTCP(packet) else { return false }
        send([event])
        return true
    }

    /// Sends an SCTP packet as DTLS application data; nothing when the connection is not up.
    public func sendApplicationData(_ packet: [UInt8]) {
        guard let connection else { return }
        send(connection.sendApplicationData(packet))
    }

    public func send(_ events: [ClientPeerConnection.Event]) {
        for case .send(let bytes, let address) in events { udp.send(bytes, to: address) }
    }

    /// Waits up to `timeout` seconds for a datagram or for `wake` to be readable; says which.
    public func wait(timeout: Double, wake: Int32) -> (datagrams: Bool, woken: Bool) {
        var descriptors = [pollfd(fd: udp.descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        _ = Glibc.poll(&descriptors, 2, Int32(max(0, min(1000, (timeout * 1000).rounded(.up)))))
        return (descriptors[0].revents != 0, descriptors[1].revents != 0)
    }

    public func close(reason: String) {
        if let connection { send(connection.close(reason: reason)) }
    }

    /// Drops the connection and takes fresh ICE credentials, for a new connection to the same
    /// server (after a rejoin the server makes a new subscriber, and a closed connection stays
    /// closed).
    public func reset(reason: String) {
        close(reason: reason)
        connection = nil
        credentials = ICECredentials.random()
    }
}
