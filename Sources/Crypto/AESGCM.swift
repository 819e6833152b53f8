import COpenSSL

/// AES-GCM (NIST SP 800-38D) through OpenSSL's EVP interface, with a 96-bit nonce and a 128-bit
/// tag: the AEAD of E2EE frames (RFC 9605 §4.5, AES_128_GCM_SHA256_128). One cipher context,
/// freed with the object; one thread uses it.
public final class AESGCM {
    public static let nonceLength = 12
    public static let tagLength = 16

    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The tag did not verify: the wrong key, or bytes changed on the way.
        case authenticationFailed
        case tooShort
        case openSSL(String)

        public var description: String {
            switch self {
            case .authenticationFailed: "the frame does not authenticate (wrong key, or changed)"
            case .tooShort: "the frame is shorter than its tag"
            case .openSSL(let function): "OpenSSL \(function) failed"
            }
        }
    }

    private let context: OpaquePointer
    private let key: [UInt8]

    /// A 16-byte key is AES-128-GCM, a 32-byte key AES-256-GCM.
    public init(key: [UInt8]) throws(Failure) {
        guard key.count == 16 || key.count == 32 else { throw .openSSL("key length \(key.count)") }
        guard let context = EVP_CIPHER_CTX_new() else { throw .openSSL("EVP_CIPHER_CTX_new") }
        self.context = context
        self.key = key
    }

    deinit { EVP_CIPHER_CTX_free(context) }

    private var cipher: OpaquePointer? { key.count == 16 ? EVP_aes_128_gcm() : EVP_aes_256_gcm() }

    /// The ciphertext of `plaintext` followed by the tag.
    public func seal(_ plaintext: some Collection<UInt8>, nonce: [UInt8], authenticating additional: [UInt8]) throws(Failure) -> [UInt8] {
        precondition(nonce.count == Self.nonceLength, "AES-GCM nonce must be 12 bytes")
        let input = Array(plaintext)
        var output = [UInt8](repeating: 0, count: input.count + Self.tagLength)
        var length: Int32 = 0
        guard EVP_EncryptInit_ex(context, cipher, nil, key, nonce) == 1 else { throw .openSSL("EVP_EncryptInit_ex") }
        if !additional.isEmpty {
            guard EVP_EncryptUpdate(context, nil, &length, additional, Int32(additional.count)) == 1 else { throw .openSSL("AAD") }
        }
        let written = output.withUnsafeMutableBufferPointer { out -> Int32? in
            var total: Int32 = 0
            if !input.isEmpty {
                guard EVP_EncryptUpdate(context, out.baseAddress, &length, input, Int32(input.count)) == 1 else { return nil }
                total = length
            }
            guard EVP_EncryptFinal_ex(context, out.baseAddress.map { $0 + Int(total) }, &length) == 1 else { return nil }
            total += length
            guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, Int32(Self.tagLength), out.baseAddress.map { $0 + Int(total) }) == 1
            else { return nil }
            return total
        }
        guard written == Int32(input.count) else { throw .openSSL("EVP_EncryptUpdate") }
        return output
    }

    /// The plaintext of ciphertext-and-tag, if the tag verifies.
    public func open(_ sealed: some Collection<UInt8>, nonce: [UInt8], authenticating additional: [UInt8]) throws(Failure) -> [UInt8] {
        precondition(nonce.count == Self.nonceLength, "AES-GCM nonce must be 12 bytes")
        let input = Array(sealed)
        guard input.count >= Self.tagLength else { throw .tooShort }
        let ciphertextLength = input.count - Self.tagLength
        var tag = Array(input[ciphertextLength...])
        // Room to spare, so the buffer is never empty (an empty array may have no address).
        var output = [UInt8](repeating: 0, count: ciphertextLength + Self.tagLength)
        var length: Int32 = 0
        guard EVP_DecryptInit_ex(context, cipher, nil, key, nonce) == 1 else { throw .openSSL("EVP_DecryptInit_ex") }
        if !additional.isEmpty {
            guard EVP_DecryptUpdate(context, nil, &length, additional, Int32(additional.count)) == 1 else { throw .openSSL("AAD") }
        }
        let verified = output.withUnsafeMutableBufferPointer { out -> Bool in
            var total: Int32 = 0
            if ciphertextLength > 0 {
                guard input.withUnsafeBufferPointer({ EVP_DecryptUpdate(context, out.baseAddress, &length, $0.baseAddress, Int32(ciphertextLength)) })
                    == 1 else { return false }
                total = length
            }
            guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, Int32(Self.tagLength), &tag) == 1 else { return false }
            // DecryptFinal checks the tag.
            return EVP_DecryptFinal_ex(context, out.baseAddress.map { $0 + Int(total) }, &length) == 1
        }
        guard verified else { throw .authenticationFailed }
        return Array(output.prefix(ciphertextLength))
    }
}
