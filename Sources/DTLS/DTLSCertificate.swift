import COpenSSL

/// A self-signed ECDSA P-256 certificate and its key, made when the process starts, for DTLS-SRTP.
/// Peers authenticate it by its SDP fingerprint, never by a chain (RFC 5763 §5, RFC 8827 §6.5).
///
/// Owns an `EVP_PKEY` and an `X509`, freed in `deinit` (a context that uses them holds its own
/// references). ECDSA because aiortc offers only ECDHE-ECDSA suites, and Chromium makes ECDSA
/// P-256 certificates too.
///
/// Thread safety: nothing changes after `init`; OpenSSL's X509 and EVP_PKEY objects may be read
/// and used for signing from several threads at once, so one certificate may serve every
/// context and session in the process.
// @unchecked Sendable: immutable after init but holds an `EVP_PKEY` and an `X509`, which OpenSSL lets threads share
public final class DTLSCertificate: @unchecked Sendable {
    let key: OpaquePointer
    let certificate: OpaquePointer
    /// The SHA-256 fingerprint for `a=fingerprint:` (what every browser sends and checks).
    public let fingerprint: DTLSFingerprint

    /// Makes a key and a certificate: version 3, a random 63-bit serial, subject and issuer
    /// `CN=commonName`, valid from now for `validity` seconds, signed with ECDSA-SHA256.
    public init(commonName: String = "revue", validity: Double = 30 * 24 * 3600) throws(DTLSError) {
        try OpenSSLLibrary.ensureInitialized()
        let key = try Self.makeKey()
        guard let certificate = X509_new() else {
            EVP_PKEY_free(key)
            throw DTLSError.setup.with("X509_new failed")
        }
        do {
            fingerprint = try Self.fill(certificate, key: key, commonName: commonName, validity: validity)
        } catch {
            // deinit does not run for an object that never finished initialising.
            X509_free(certificate)
            EVP_PKEY_free(key)
            throw error
        }
        self.key = key
        self.certificate = certificate
    }

    deinit {
        X509_free(certificate)
        EVP_PKEY_free(key)
    }

    /// The fingerprint with another hash function (`X509_digest`), for peers that ask for one.
    public func fingerprint(_ algorithm: DTLSFingerprint.Algorithm) -> DTLSFingerprint? {
        Self.digest(certificate, algorithm)
    }

    /// The certificate as PEM (`PEM_write_bio_X509`), to inspect it with the openssl tool.
    public func certificatePEM() throws(DTLSError) -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { throw DTLSError.setup.with("BIO_new failed") }
        defer { BIO_free(bio) }
        guard PEM_write_bio_X509(bio, certificate) == 1 else {
            throw DTLSError.setup.with("PEM_write_bio_X509 failed: \(OpenSSLLibrary.errors())")
        }
        var pointer: UnsafeMutablePointer<CChar>?
        let length = revue_bio_get_mem_data(bio, &pointer)
        guard let pointer, length > 0 else { throw DTLSError.setup.with("BIO_get_mem_data failed") }
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
    }

    /// The digest of a DER certificate with `algorithm` (`X509_digest`).
    static func digest(_ certificate: OpaquePointer, _ algorithm: DTLSFingerprint.Algorithm) -> DTLSFingerprint? {
        let method: OpaquePointer? = switch algorithm {
        case .sha1: EVP_sha1()
        case .sha224: EVP_sha224()
        case .sha256: EVP_sha256()
        case .sha384: EVP_sha384()
        case .sha512: EVP_sha512()
        }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard X509_digest(certificate, method, &digest, &length) == 1 else { return nil }
        return try? DTLSFingerprint(algorithm: algorithm, digest: Array(digest.prefix(Int(length))))
    }

    /// An EC key on P-256 (`EVP_PKEY_keygen`; `EVP_EC_gen` is variadic underneath, so Swift cannot
    /// call it).
    private static func makeKey() throws(DTLSError) -> OpaquePointer {
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil) else { throw DTLSError.setup.with("EVP_PKEY_CTX_new_id failed") }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1,
              EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, NID_X9_62_prime256v1) == 1
        else { throw DTLSError.setup.with("EC key setup failed: \(OpenSSLLibrary.errors())") }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen(context, &key) == 1, let key else {
            throw DTLSError.setup.with("EVP_PKEY_keygen failed: \(OpenSSLLibrary.errors())")
        }
        return key
    }

    private static func fill(_ certificate: OpaquePointer, key: OpaquePointer, commonName: String,
                             validity: Double) throws(DTLSError) -> DTLSFingerprint
    {
        var serial: UInt64 = 0
        let random = withUnsafeMutableBytes(of: &serial) { RAND_bytes($0.baseAddress, Int32($0.count)) }
        guard random == 1 else { throw DTLSError.setup.with("RAND_bytes failed: \(OpenSSLLibrary.errors())") }
        // A positive serial (RFC 5280 §4.1.2.2), never zero.
        serial = (serial & 0x7FFF_FFFF_FFFF_FFFF) | 1
        guard X509_set_version(certificate, 2) == 1, // X.509 v3
              ASN1_INTEGER_set_uint64(X509_get_serialNumber(certificate), serial) == 1,
              X509_gmtime_adj(X509_getm_notBefore(certificate), 0) != nil,
              X509_gmtime_adj(X509_getm_notAfter(certificate), Int(validity)) != nil,
              X509_set_pubkey(certificate, key) == 1,
              let name = X509_get_subject_name(certificate),
              X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, commonName, -1, -1, 0) == 1,
              X509_set_issuer_name(certificate, name) == 1
        else { throw DTLSError.setup.with("certificate fields: \(OpenSSLLibrary.errors())") }
        guard X509_sign(certificate, key, EVP_sha256()) > 0 else {
            throw DTLSError.setup.with("X509_sign failed: \(OpenSSLLibrary.errors())")
        }
        guard let fingerprint = digest(certificate, .sha256) else {
            throw DTLSError.setup.with("X509_digest failed: \(OpenSSLLibrary.errors())")
        }
        return fingerprint
    }
}
