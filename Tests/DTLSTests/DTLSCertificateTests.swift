import DTLS
import Foundation
import Platform
import Testing

@Suite struct DTLSCertificateTests {
    /// What the openssl tool reads in the certificate.
    static func inspect(_ certificate: DTLSCertificate, _ arguments: [String]) throws -> String {
        let path = NSTemporaryDirectory() + "dtls-cert-\(UUID().uuidString).pem"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try certificate.certificatePEM().write(toFile: path, atomically: true, encoding: .utf8)
        let result = try Subprocess.run("openssl", ["x509", "-in", path, "-noout"] + arguments)
        guard result.succeeded else { throw TestFailure("openssl x509: \(result.standardError)") }
        return result.standardOutput
    }

    @Test func isASelfSignedP256CertificateForThirtyDays() throws {
        let certificate = DTLSTestPeers.serverCertificate
        let text = try Self.inspect(certificate, ["-text"])
        #expect(text.contains("Version: 3"))
        #expect(text.contains("Subject: CN = revue"))
        #expect(text.contains("Issuer: CN = revue"))
        #expect(text.contains("ASN1 OID: prime256v1"))
        #expect(text.contains("Signature Algorithm: ecdsa-with-SHA256"))
        let dates = try Self.inspect(certificate, ["-startdate", "-enddate", "-dateopt", "iso_8601"])
        let stamps = dates.split(separator: "\n").compactMap { $0.split(separator: "=").last.map(String.init) }
        let format = ISO8601DateFormatter()
        format.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withSpaceBetweenDateAndTime]
        let parsed = stamps.compactMap { format.date(from: $0.replacingOccurrences(of: "Z", with: "")) }
        try #require(parsed.count == 2, "dates: \(dates)")
        #expect(abs(parsed[1].timeIntervalSince(parsed[0]) - 30 * 86_400) < 2)
    }

    @Test func fingerprintIsWhatOpenSSLPrints() throws {
        let certificate = DTLSTestPeers.clientCertificate
        // "sha256 Fingerprint=AB:CD:..." (RFC 8122 §5: upper-case hex pairs and colons).
        let printed = try Self.inspect(certificate, ["-fingerprint", "-sha256"])
        #expect(printed.trimmingCharacters(in: .whitespacesAndNewlines) == "sha256 Fingerprint=\(certificate.fingerprint.value)")
        #expect(certificate.fingerprint.algorithm == .sha256)
        #expect(certificate.fingerprint.description.hasPrefix("sha-256 "))
        #expect(certificate.fingerprint.value.count == 32 * 3 - 1)
        let sha1 = try Self.inspect(certificate, ["-fingerprint", "-sha1"])
        #expect(sha1.contains(try #require(certificate.fingerprint(.sha1)).value))
        let sha512 = try Self.inspect(certificate, ["-fingerprint", "-sha512"])
        #expect(sha512.contains(try #require(certificate.fingerprint(.sha512)).value))
    }

    @Test func eachCertificateIsNew() throws {
        let one = try DTLSCertificate(), two = try DTLSCertificate(commonName: "other")
        #expect(one.fingerprint != two.fingerprint)
        #expect(try Self.inspect(two, ["-subject"]).contains("CN = other"))
        let serials = try [one, two].map { try Self.inspect($0, ["-serial"]) }
        #expect(serials[0] != serials[1])
    }

    @Test func oneCertificateServesSessionsOnManyThreads() async throws {
        // One certificate and one context per side, shared by 8 concurrent handshakes.
        let contexts = (client: try DTLSContext(certificate: DTLSTestPeers.clientCertificate),
                        server: try DTLSContext(certificate: DTLSTestPeers.serverCertificate))
        let connected = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    guard let peers = try? DTLSTestPeers(sharedContexts: contexts) else { return false }
                    peers.handshake()
                    return peers.server.state == .connected && peers.client.state == .connected
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(connected == 8)
    }
}

@Suite struct DTLSFingerprintTests {
    @Test func readsSDPInEitherCase() throws {
        let upper = try DTLSFingerprint(attribute: "sha-256 0A:1B:2C:3D:4E:5F:60:71:82:93:A4:B5:C6:D7:E8:F9:0A:1B:2C:3D:4E:5F:60:71:82:93:A4:B5:C6:D7:E8:F9")
        let lower = try DTLSFingerprint(algorithm: "SHA-256", value: "0a:1b:2c:3d:4e:5f:60:71:82:93:a4:b5:c6:d7:e8:f9:0a:1b:2c:3d:4e:5f:60:71:82:93:a4:b5:c6:d7:e8:f9")
        #expect(upper == lower)
        #expect(upper.digest.first == 0x0A && upper.digest.last == 0xF9)
        #expect(lower.description == "sha-256 0A:1B:2C:3D:4E:5F:60:71:82:93:A4:B5:C6:D7:E8:F9:0A:1B:2C:3D:4E:5F:60:71:82:93:A4:B5:C6:D7:E8:F9")
    }

    @Test(arguments: [
        ("md5", "00:11"), // RFC 8122 allows it; Revue does not
        ("sha-256", "00:11"), // too short
        ("sha-1", "00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:3"), // odd digit
        ("sha-1", "0011:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33"),
        ("sha-1", "GG:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33"),
        ("sha-1", ""),
    ])
    func refusesBadFingerprints(algorithm: String, value: String) {
        #expect(throws: DTLSError.invalidFingerprint) { try DTLSFingerprint(algorithm: algorithm, value: value) }
    }

    @Test func refusesAnAttributeWithoutTwoFields() {
        #expect(throws: DTLSError.invalidFingerprint) { try DTLSFingerprint(attribute: "sha-256") }
    }
}
