import COpenSSL

/// OpenSSL's process-wide settings that must come before anything else uses it.
public enum OpenSSLProcess {
    /// Turns off OpenSSL's clean-up at exit (`OPENSSL_INIT_NO_ATEXIT`). By default OpenSSL frees
    /// its global state from an atexit handler; a process that exits while another of its
    /// threads is still inside OpenSSL (a publisher's media thread closing DTLS, a receiver
    /// deriving SRTP keys) has that thread use freed state, and the process aborts as it ends.
    /// The kernel reclaims the memory anyway. Only the first initialisation decides, so `revue`
    /// calls this first thing in `main`.
    public static func skipCleanupAtExit() {
        _ = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil)
    }
}
