import CSRTP

/// libsrtp's process-wide initialisation (`srtp_init`), done once, before the first session.
enum SRTPLibrary {
    /// The result of the one `srtp_init` call: Swift runs a static initialiser exactly once,
    /// thread-safely.
    private static let initialization: Int32 = Int32(srtp_init().rawValue)

    /// Initialises libsrtp if nothing has; throws if it failed.
    static func ensureInitialized() throws(SRTPError) {
        let status = initialization
        guard status == 0 else { throw SRTPError.status(status, during: "srtp_init") }
    }
}
