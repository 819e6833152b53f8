import COpenSSL

/// MD5 (RFC 1321), only for what object storage asks for: the `Content-MD5` header an S3 server
/// checks a body against (RFC 1864), and the ETags it answers with. Never for security.
public enum MD5 {
    /// The 16-byte digest of `bytes`.
    public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let stream = StreamingDigest(.md5)
        stream.update(Array(bytes))
        return stream.finish()
    }
}
