import COpenSSL

/// A digest fed in pieces (a file read a buffer at a time), through OpenSSL's `EVP_MD_CTX`,
/// which this class owns and frees.
public final class StreamingDigest {
    /// The digests object storage needs.
    public enum Algorithm: Sendable {
        case sha256, md5
    }

    private let context: OpaquePointer?
    private var finished = false

    public init(_ algorithm: Algorithm) {
        context = EVP_MD_CTX_new()
        // EVP_DigestInit_ex fails only without memory or with a provider that lacks the digest;
        // finish() then checks the length it gets.
        _ = EVP_DigestInit_ex(context, algorithm == .sha256 ? EVP_sha256() : EVP_md5(), nil)
    }

    deinit {
        EVP_MD_CTX_free(context)
    }

    /// Adds bytes to the digest.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard !finished, let base = bytes.baseAddress, bytes.count > 0 else { return }
        _ = EVP_DigestUpdate(context, base, bytes.count)
    }

    public func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The digest of everything added (32 bytes for SHA-256, 16 for MD5). Call once.
    public func finish() -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        if !finished {
            finished = true
            _ = output.withUnsafeMutableBufferPointer { EVP_DigestFinal_ex(context, $0.baseAddress, &length) }
        }
        precondition(length == 32 || length == 16, "EVP_DigestFinal_ex failed")
        return Array(output.prefix(Int(length)))
    }
}
