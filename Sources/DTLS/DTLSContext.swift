import COpenSSL
import SRTP

/// The DTLS settings every session of a process shares: an OpenSSL `SSL_CTX` (freed in
/// `deinit`) with the certificate, DTLS 1.2, the cipher list and the SRTP profiles.
///
/// Make one per certificate and give it to every `DTLSSession`. The `SSL_CTX` is configured here
/// and never changed afterwards, which is what OpenSSL needs for `SSL_new` to be called on it
/// from several threads at once.
///
/// Cookie exchange (RFC 6347 §4.2.1) stays off: ICE connectivity checks have already proved the
/// peer's address, so a ClientHello is answered with the ServerHello at once.
// @unchecked Sendable: immutable after init but holds an `SSL_CTX`, never changed after setup, so any thread may SSL_new
public final class DTLSContext: @unchecked Sendable {
    /// The certificate every session of this context presents.
    public let certificate: DTLSCertificate
    /// The SRTP profiles offered (as a client) or accepted (as a server), most preferred first.
    public let profiles: [SRTPProtectionProfile]
    let context: OpaquePointer

    /// Cipher suites as mediasoup and janus choose them: ECDHE with AES-GCM, ChaCha20 or AES-CBC,
    /// no NULL/anonymous/PSK suites and no AES-256-GCM.
    static let cipherList = "DEFAULT:!NULL:!aNULL:!SHA256:!SHA384:!aECDH:!AESGCM+AES256:!aPSK"

    /// Sets up the context.
    /// - Parameter profiles: the use_srtp profiles, most preferred first. A server's order
    ///   decides (OpenSSL picks its own first profile the client also offers), so GCM comes first
    ///   (stronger, and 6 bytes shorter per packet), then AES-CM, which every browser has.
    public init(certificate: DTLSCertificate,
                profiles: [SRTPProtectionProfile] = [.aeadAES128GCM, .aes128CMHMACSHA1_80]) throws(DTLSError)
    {
        try OpenSSLLibrary.ensureInitialized()
        guard !profiles.isEmpty else { throw DTLSError.setup.with("no SRTP profile given") }
        guard let method = DTLS_method(), let context = SSL_CTX_new(method) else {
            throw DTLSError.setup.with("SSL_CTX_new failed: \(OpenSSLLibrary.errors())")
        }
        do {
            try Self.configure(context, certificate: certificate, profiles: profiles)
        } catch {
            SSL_CTX_free(context)
            throw error
        }
        self.context = context
        self.certificate = certificate
        self.profiles = profiles
    }

    deinit {
        SSL_CTX_free(context)
    }

    private static func configure(_ context: OpaquePointer, certificate: DTLSCertificate,
                                  profiles: [SRTPProtectionProfile]) throws(DTLSError)
    {
        // DTLS 1.2 (RFC 6347), which Chromium has required since M74. OpenSSL 3.0 has no DTLS 1.3,
        // so a 1.3-capable ClientHello is answered with 1.2.
        guard revue_ssl_ctx_set_min_proto_version(context, DTLS1_2_VERSION) == 1 else {
            throw DTLSError.setup.with("cannot require DTLS 1.2: \(OpenSSLLibrary.errors())")
        }
        // No MTU query (memory BIOs have no path), no tickets, no renegotiation: the keys
        // exported at the end of the handshake are the keys for the whole call.
        _ = SSL_CTX_set_options(context, revue_ssl_op_no_query_mtu() | revue_ssl_op_no_ticket() | revue_ssl_op_no_renegotiation())
        guard SSL_CTX_use_certificate(context, certificate.certificate) == 1,
              SSL_CTX_use_PrivateKey(context, certificate.key) == 1,
              SSL_CTX_check_private_key(context) == 1
        else { throw DTLSError.setup.with("cannot load the certificate: \(OpenSSLLibrary.errors())") }
        guard SSL_CTX_set_cipher_list(context, cipherList) == 1 else {
            throw DTLSError.setup.with("SSL_CTX_set_cipher_list failed: \(OpenSSLLibrary.errors())")
        }
        // Ask for the peer's certificate and accept any: it is self-signed, and what
        // authenticates it is the SDP fingerprint, checked once the handshake is done
        // (RFC 5763 §5).
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT) { _, _ in 1 }
        // use_srtp (RFC 5764 §4.1.1). This one returns 0 on success.
        let names = profiles.map(\.openSSLName).joined(separator: ":")
        guard SSL_CTX_set_tlsext_use_srtp(context, names) == 0 else {
            throw DTLSError.setup.with("SSL_CTX_set_tlsext_use_srtp(\(names)) failed: \(OpenSSLLibrary.errors())")
        }
    }
}
