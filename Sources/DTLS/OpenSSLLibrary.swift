import COpenSSL
import Crypto

/// OpenSSL's process-wide initialisation for DTLS, in one place. OpenSSL 3 would initialise
/// itself on first use; doing it here, once, makes a failure a typed error at setup instead of
/// an odd failure mid-handshake.
enum OpenSSLLibrary {
    /// Swift runs a static initialiser exactly once, thread-safely.
    private static let initialized: Bool = OPENSSL_init_ssl(0, nil) == 1

    static func ensureInitialized() throws(DTLSError) {
        guard initialized else { throw DTLSError.setup.with("OPENSSL_init_ssl failed: \(errors())") }
    }

    /// This thread's OpenSSL errors as text, taken off its queue.
    static func errors() -> String {
        let reasons = CryptoError.takeOpenSSLErrors()
        return reasons.isEmpty ? "no reason given" : reasons.joined(separator: "; ")
    }
}
