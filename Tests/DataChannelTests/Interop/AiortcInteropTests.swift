#if canImport(Glibc)
import Glibc
#endif
import DTLS
import DataChannel
import Foundation
import Platform
import Testing

extension SCTPTests {
    /// Revue's association (the DTLS server) against aiortc 1.16's own SCTP stack and data
    /// channels (the DTLS client), in real time over UDP on 127.0.0.1: once with the SCTP
    /// packets in plain datagrams, once inside aiortc's real DTLS (`RTCDtlsTransport`) against
    /// `DTLSSession`. aiortc's ICE is replaced by a UDP stand-in (`Interop/aiortc_sctp_peer.py`):
    /// Revue's ICE is not assembled yet. Runs when REVUE_AIORTC_PYTHON names a Python with
    /// aiortc 1.16 (a venv: `python3.11 -m venv /tmp/v && /tmp/v/bin/pip install aiortc==1.16.0`).
    @Suite struct AiortcInteropTests {
        static let python = ProcessInfo.processInfo.environment["REVUE_AIORTC_PYTHON"]

        /// One line of the peer's report.
        struct Event: Decodable, Equatable {
            let event: String
            let label: String?
            let id: Int?
            let text: String?
        }

        @Test(.enabled(if: python != nil, "set REVUE_AIORTC_PYTHON to a Python with aiortc 1.16"), arguments: [false, true])
        func dataChannelsWithAiortc(overDTLS: Bool) throws {
            let link = try AiortcLink(python: try #require(Self.python), overDTLS: overDTLS)
            defer { link.stop() }
            #expect(link.run(seconds: 15) { link.messages(on: 0).count == 5 && !link.messages(on: 2).isEmpty },
                    "events: \(link.events), aiortc: \(link.peerErrors)")
            // aiortc (DTLS client) opened even ids (RFC 8832 §6) with its settings.
            let chat = try #require(link.events.lazy.compactMap { if case .opened(let c) = $0, c.label == "chat" { c } else { nil } }.first)
            #expect(chat.id == 0 && chat.ordered && chat.reliability == .reliable && chat.protocol == "revue-chat")
            let game = try #require(link.association.channel(2))
            #expect(game.label == "game" && !game.ordered && game.maxRetransmits == 0)
            let seed: [UInt8] = (0..<15 * 1024).map { UInt8($0 % 251) }
            let large: [UInt8] = (0..<64 * 1024).map { UInt8($0 % 253) }
            let expected: [DataChannelPayload] = [.text("hello from aiortc"), .binary([7]), .binary(seed), .binary(large), .text("")]
            #expect(link.messages(on: 0) == expected)
            #expect(link.messages(on: 2) == [.text("ping")])

            // Revue (DTLS server) opens an odd id; aiortc echoes.
            let opened = try link.association.openChannel(label: "from-revue", now: link.now())
            link.handle(opened.actions)
            #expect(opened.channel.id == 1)
            link.handle(try link.association.send(.text("hi aiortc"), on: 1, now: link.now()))
            #expect(link.run(seconds: 10) { link.messages(on: 1).contains(.text("echo:hi aiortc")) })
            // Closing a channel resets its streams both ways (RFC 8831 §6.7, aiortc's RE-CONFIG).
            link.handle(try link.association.closeChannel(0, now: link.now()))
            #expect(link.run(seconds: 10) { link.events.contains(.closed(channelID: 0)) })
            link.handle(try link.association.send(.text("bye"), on: 1, now: link.now()))
            #expect(link.run(seconds: 10) { link.events.contains(.associationDown(.abortedByPeer)) }, "aiortc aborts when it stops")

            let reported = link.peerEvents()
            #expect(reported.contains(Event(event: "datachannel", label: "from-revue", id: 1, text: nil)))
            #expect(reported.contains(Event(event: "message", label: "from-revue", id: 1, text: "hi aiortc")))
            #expect(reported.contains(Event(event: "closed", label: "chat", id: 0, text: nil)))
            #expect(!reported.contains { $0.event == "timeout" })
            if overDTLS {
                #expect(reported.contains(Event(event: "dtls", label: nil, id: nil, text: "connected")))
                #expect(link.dtls?.state == .connected || link.dtls?.state == .closed)
                // SCTP packets fit the datagrams: aiortc's DTLS took every record.
                #expect(link.largestDatagram <= 1200)
            }
        }
    }

    /// The test's side of the aiortc peer: a UDP socket, optionally a DTLS session, and the
    /// association, on the real monotonic clock (which is also what usrsctp's own wall-clock
    /// checks expect).
    final class AiortcLink {
        let socket: LoopbackUDPSocket
        let aiortcPort: UInt16
        let association: SCTPAssociation
        private(set) var dtls: DTLSSession?
        private(set) var events: [DataChannelEvent] = []
        private(set) var largestDatagram = 0
        private let peer: Subprocess
        private let output: String

        static let certificate: DTLSCertificate? = try? DTLSCertificate()

        init(python: String, overDTLS: Bool) throws {
            socket = try LoopbackUDPSocket()
            aiortcPort = try LoopbackUDPSocket().port
            output = NSTemporaryDirectory() + "aiortc-sctp-\(UUID().uuidString).jsonl"
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("aiortc_sctp_peer.py").path
            var arguments = [script, String(socket.port), String(aiortcPort)]
            let certificate = try #require(Self.certificate)
            if overDTLS { arguments.append(certificate.fingerprint.value) }
            peer = try Subprocess(python, arguments, standardOutput: .file(output), standardError: .file(output + ".err"))
            association = try SCTPAssociation(role: .server)
            guard overDTLS else {
                handle(association.start(now: now()))
                return
            }
            // aiortc prints its fingerprint first; its ClientHello may come before that is read.
            var early: [[UInt8]] = []
            let deadline = now() + 15
            var fingerprint: String?
            while fingerprint == nil && now() < deadline {
                if let datagram = socket.receive(timeout: 0.01) { early.append(datagram) }
                fingerprint = peerEvents().first { $0.event == "fingerprint" }?.text
            }
            let value = try #require(fingerprint, "aiortc did not start: \(peerErrors)")
            let session = try DTLSSession(context: DTLSContext(certificate: certificate), role: .server,
                                          remoteFingerprints: [DTLSFingerprint(algorithm: "sha-256", value: value)])
            dtls = session
            dtlsActions(session.start(now: now()))
            for datagram in early { dtlsActions(session.receive(datagram, now: now())) }
        }

        func stop() {
            peer.signal(SIGKILL)
            _ = peer.wait()
        }

        /// The process's monotonic clock, as every live association reads it (`SCTPClock.monotonic`).
        func now() -> Double { HelperProcess.now() }

        /// The association's actions: packets to aiortc (through DTLS when there is one).
        func handle(_ actions: [SCTPAction]) {
            for action in actions {
                switch action {
                case .send(let packet):
                    if let dtls {
                        guard let sent = try? dtls.send(applicationData: packet) else { continue }
                        dtlsActions(sent)
                    } else {
                        socket.send(packet, to: aiortcPort)
                    }
                case .event(let event):
                    events.append(event)
                }
            }
        }

        /// Receives and runs timers until `done`, for at most `seconds`.
        func run(seconds: Double, until done: () -> Bool) -> Bool {
            let deadline = now() + seconds
            while !done() && now() < deadline {
                if let datagram = socket.receive(timeout: SCTPAssociation.timerInterval) {
                    if let dtls {
                        dtlsActions(dtls.receive(datagram, now: now()))
                    } else {
                        handle(association.receive(datagram, now: now()))
                    }
                }
                if let dtls { dtlsActions(dtls.handleTimeout(now: now())) }
                handle(association.handleTimers(now: now()))
            }
            return done()
        }

        func messages(on id: UInt16) -> [DataChannelPayload] {
            events.compactMap { if case .message(id, let payload) = $0 { payload } else { nil } }
        }

        /// What the peer reported so far.
        func peerEvents() -> [AiortcInteropTests.Event] {
            ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n")
                .compactMap { try? JSONDecoder().decode(AiortcInteropTests.Event.self, from: Data($0.utf8)) }
        }

        var peerErrors: String { (try? String(contentsOfFile: output + ".err", encoding: .utf8)) ?? "" }

        private func dtlsActions(_ actions: [DTLSAction]) {
            for action in actions {
                switch action {
                case .send(let datagram):
                    largestDatagram = max(largestDatagram, datagram.count)
                    socket.send(datagram, to: aiortcPort)
                case .connected:
                    handle(association.start(now: now()))
                case .applicationData(let packet):
                    handle(association.receive(packet, now: now()))
                case .failed, .closed:
                    break
                }
            }
        }
    }
}
