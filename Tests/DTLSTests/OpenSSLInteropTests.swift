#if canImport(Glibc)
import Glibc
#endif
import DTLS
import Foundation
import Platform
import SRTP
import TestKit
import Testing

/// DTLS-SRTP against the openssl tool over UDP on 127.0.0.1, both ways: our client to
/// `openssl s_server`, and `openssl s_client` to our server. The keys each side exports must be
/// the ones openssl prints (`-keymatexport EXTRACTOR-dtls_srtp -keymatexportlen 60`).
@Suite(.serialized, .live, .timeLimit(.minutes(10))) struct OpenSSLInteropTests {
    /// A scratch directory with an ECDSA P-256 certificate for the openssl side.
    final class Workspace {
        let path: String
        let certificate: String
        let key: String
        let fingerprint: DTLSFingerprint

        init() throws {
            path = NSTemporaryDirectory() + "dtls-interop-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            certificate = path + "/cert.pem"
            key = path + "/key.pem"
            let made = try Subprocess.run("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                                                      "-nodes", "-days", "1", "-subj", "/CN=openssl-peer",
                                                      "-keyout", key, "-out", certificate])
            guard made.succeeded else { throw TestFailure("openssl req: \(made.standardError)") }
            // "sha256 Fingerprint=AB:CD:..." is the same text SDP carries.
            let printed = try Subprocess.run("openssl", ["x509", "-in", certificate, "-noout", "-fingerprint", "-sha256"])
            guard let value = printed.standardOutput.split(separator: "=").last else { throw TestFailure("no fingerprint") }
            fingerprint = try DTLSFingerprint(algorithm: "sha-256", value: value.trimmingCharacters(in: .whitespacesAndNewlines))
        }

        deinit {
            try? FileManager.default.removeItem(atPath: path)
        }

        func read(_ name: String) -> String {
            (try? String(contentsOfFile: path + "/" + name, encoding: .utf8)) ?? ""
        }
    }

    /// Runs `session` over `socket` until `done` holds or 10 s pass, on the real clock, calling
    /// `handleTimeout` when due. Returns every non-send action.
    static func drive(_ session: DTLSSession, over socket: UDPTestSocket, to port: UInt16?, start: Bool,
                      until done: ([DTLSAction]) -> Bool) -> [DTLSAction]
    {
        let clock = ContinuousClock()
        let origin = clock.now
        func now() -> Double {
            let elapsed = clock.now - origin
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        }
        var events: [DTLSAction] = []
        func perform(_ actions: [DTLSAction]) {
            for action in actions {
                if case .send(let datagram) = action { socket.send(datagram, to: port) } else { events.append(action) }
            }
        }
        if start { perform(session.start(now: now())) }
        while !done(events), now() < 10 {
            let wait = session.nextTimeout.map { max(0, $0 - now()) } ?? 0.05
            if let datagram = socket.receive(timeout: min(wait, 0.05)) {
                perform(session.receive(datagram, now: now()))
            }
            if let deadline = session.nextTimeout, now() >= deadline { perform(session.handleTimeout(now: now())) }
        }
        return events
    }

    /// Waits up to 10 s for `text` to appear in the file `name`.
    static func waitFor(_ text: String, in workspace: Workspace, _ name: String) -> String {
        for _ in 0..<1000 {
            let contents = workspace.read(name)
            if contents.contains(text) { return contents }
            usleep(10_000)
        }
        return workspace.read(name)
    }

    /// The hex after "Keying material: " in openssl's output.
    static func keyingMaterial(in output: String) -> String? {
        guard let line = output.split(separator: "\n").first(where: { $0.contains("Keying material:") }) else { return nil }
        return line.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02X", $0) }.joined() }

    /// The export as RFC 5764 §4.2 lays it out, rebuilt from a client's split keys.
    static func export(client: SRTPKeyingMaterial, server: SRTPKeyingMaterial) -> String {
        hex(client.masterKey + server.masterKey + client.masterSalt + server.masterSalt)
    }

    @Test(arguments: [SRTPProtectionProfile.aes128CMHMACSHA1_80, .aeadAES128GCM])
    func ourClientToOpenSSLServer(profile: SRTPProtectionProfile) throws {
        let workspace = try Workspace()
        let port = try UDPTestSocket.freePort()
        // s_server reads what to send from standard input and stops at its end, so it gets a FIFO
        // that stays open until the test closes it.
        let fifo = workspace.path + "/stdin"
        guard mkfifo(fifo, 0o600) == 0 else { throw TestFailure("mkfifo failed") }
        let command = "exec openssl s_server -dtls1_2 -accept 127.0.0.1:\(port) -cert \(workspace.certificate) -key \(workspace.key)"
            + " -use_srtp \(profile.openSSLName) -keymatexport EXTRACTOR-dtls_srtp -keymatexportlen \(2 * (profile.masterKeyLength + profile.masterSaltLength))"
            + " -verify 1 -naccept 1 < \(fifo)"
        let server = try Subprocess("/bin/sh", ["-c", command], standardOutput: .file(workspace.path + "/server.out"),
                                    standardError: .file(workspace.path + "/server.out"))
        let input = open(fifo, O_WRONLY)
        defer {
            if input >= 0 { close(input) }
            server.signal(SIGKILL)
            server.wait()
        }
        let socket = try UDPTestSocket()
        let context = try DTLSContext(certificate: DTLSTestPeers.clientCertificate)
        let session = try DTLSSession(context: context, role: .client, remoteFingerprints: [workspace.fingerprint])
        // Sent before s_server may be listening: the retransmission timer covers that.
        let events = Self.drive(session, over: socket, to: port, start: true) { events in
            events.contains { if case .connected = $0 { true } else { false } } || DTLSTestPeers.failure(in: events) != nil
        }
        let keys = try #require(DTLSTestPeers.keys(in: events), "events: \(events), server: \(workspace.read("server.out"))")
        #expect(keys.profile == profile)
        for case .send(let datagram) in try session.send(applicationData: Array("hello from revue\n".utf8)) {
            socket.send(datagram, to: port)
        }
        let output = Self.waitFor("hello from revue", in: workspace, "server.out")
        #expect(output.contains("SRTP Extension negotiated, profile=\(profile.openSSLName)"))
        // s_server asked for our certificate (-verify) and got it.
        #expect(output.contains("subject=CN = revue"))
        #expect(Self.keyingMaterial(in: output) == Self.export(client: keys.local, server: keys.remote))
        #expect(session.remoteCertificateFingerprint == workspace.fingerprint)
    }

    /// What s_client offers, and what our server (GCM first) must pick: its own first choice
    /// among the offered, whatever the client's order.
    static let offers: [(offer: String, expected: SRTPProtectionProfile)] = [
        ("SRTP_AES128_CM_SHA1_80", .aes128CMHMACSHA1_80),
        ("SRTP_AES128_CM_SHA1_80:SRTP_AEAD_AES_128_GCM", .aeadAES128GCM),
    ]

    @Test(arguments: offers)
    func openSSLClientToOurServer(offer: String, expected: SRTPProtectionProfile) throws {
        let workspace = try Workspace()
        let socket = try UDPTestSocket()
        let client = try Subprocess("openssl", [
            "s_client", "-dtls", "-connect", "127.0.0.1:\(socket.port)", "-cert", workspace.certificate, "-key", workspace.key,
            "-use_srtp", offer, "-keymatexport", "EXTRACTOR-dtls_srtp",
            "-keymatexportlen", String(2 * (expected.masterKeyLength + expected.masterSaltLength)), "-ign_eof",
        ], standardOutput: .file(workspace.path + "/client.out"), standardError: .file(workspace.path + "/client.out"))
        defer {
            client.signal(SIGKILL)
            client.wait()
        }
        let context = try DTLSContext(certificate: DTLSTestPeers.serverCertificate)
        let session = try DTLSSession(context: context, role: .server, remoteFingerprints: [workspace.fingerprint])
        let events = Self.drive(session, over: socket, to: nil, start: true) { events in
            events.contains { if case .connected = $0 { true } else { false } } || DTLSTestPeers.failure(in: events) != nil
        }
        let keys = try #require(DTLSTestPeers.keys(in: events), "events: \(events), client: \(workspace.read("client.out"))")
        #expect(keys.profile == expected)
        #expect(keys.local.masterSalt.count == expected.masterSaltLength)
        for case .send(let datagram) in try session.send(applicationData: Array("hello from the room server\n".utf8)) {
            socket.send(datagram)
        }
        let output = Self.waitFor("hello from the room server", in: workspace, "client.out")
        #expect(output.contains("SRTP Extension negotiated, profile=\(expected.openSSLName)"))
        #expect(output.contains("Protocol  : DTLSv1.2"))
        #expect(Self.keyingMaterial(in: output) == Self.export(client: keys.remote, server: keys.local))
    }
}
