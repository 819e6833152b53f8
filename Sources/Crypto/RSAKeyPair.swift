import COpenSSL
import Foundation

/// An RSA key pair for signing webhooks (RSA-SHA256, PKCS #1 v1.5), owned as an `EVP_PKEY`
/// (freed in `deinit`). Generated once and kept as PEM.
// @unchecked Sendable: immutable after init but holds an `EVP_PKEY`; each sign or verify makes its own EVP_MD_CTX
public final class RSAKeyPair: @unchecked Sendable {
    private let key: OpaquePointer

    private init(key: OpaquePointer) {
        self.key = key
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// A new key pair (EVP_PKEY_keygen).
    public static func generate(bits: Int = 2048) throws -> RSAKeyPair {
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_RSA, nil) else { throw CryptoError.openSSL("EVP_PKEY_CTX_new_id") }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(bits)) == 1 else {
            throw CryptoError.openSSL("EVP_PKEY_keygen_init")
        }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen(context, &key) == 1, let key else { throw CryptoError.openSSL("EVP_PKEY_keygen") }
        return RSAKeyPair(key: key)
    }

    /// Reads a private key in PEM.
    public static func load(privateKeyPEM pem: String) throws -> RSAKeyPair {
        let bytes = Array(pem.utf8)
        // BIO_new_mem_buf does not copy: the key is read while the bytes are pinned.
        let key = try bytes.withUnsafeBytes { buffer throws(CryptoError) -> OpaquePointer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { throw CryptoError.openSSL("BIO_new_mem_buf") }
            defer { BIO_free(bio) }
            guard let key = PEM_read_bio_PrivateKey(bio, nil, nil, nil) else { throw CryptoError.openSSL("PEM_read_bio_PrivateKey") }
            return key
        }
        return RSAKeyPair(key: key)
    }

    /// Loads the key at `path`, or generates one and writes it there (mode 0600).
    public static func loadOrCreate(at path: String) throws -> RSAKeyPair {
        if let pem = try? String(contentsOfFile: path, encoding: .utf8) {
            do {
                return try load(privateKeyPEM: pem)
            } catch {
                throw CryptoError("\(path) is not a PEM private key (\(error)); restore it, or remove it to make a new one")
            }
        }
        let pair = try generate()
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: path, contents: Data(try pair.privateKeyPEM().utf8),
                                             attributes: [.posixPermissions: 0o600])
        else { throw CryptoError("cannot write \(path)") }
        return pair
    }

    public func privateKeyPEM() throws -> String {
        try withMemoryBIO { PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) }
    }

    /// The public key as PEM (SubjectPublicKeyInfo), what `openssl dgst -verify` reads.
    public func publicKeyPEM() throws -> String {
        try withMemoryBIO { PEM_write_bio_PUBKEY($0, key) }
    }

    /// Signs `message` with RSA-SHA256 (EVP_DigestSign).
    public func sign(_ message: [UInt8]) throws -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw CryptoError.openSSL("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else { throw CryptoError.openSSL("EVP_DigestSignInit") }
        var length = 0
        guard message.withUnsafeBufferPointer({ EVP_DigestSign(context, nil, &length, $0.baseAddress, $0.count) }) == 1 else {
            throw CryptoError.openSSL("EVP_DigestSign")
        }
        var signature = [UInt8](repeating: 0, count: length)
        let ok = message.withUnsafeBufferPointer { input in
            signature.withUnsafeMutableBufferPointer { EVP_DigestSign(context, $0.baseAddress, &length, input.baseAddress, input.count) }
        }
        guard ok == 1 else { throw CryptoError.openSSL("EVP_DigestSign") }
        return Array(signature.prefix(length))
    }

    /// Checks an RSA-SHA256 signature with this key's public half.
    public func verify(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
        return signature.withUnsafeBufferPointer { sig in
            message.withUnsafeBufferPointer { EVP_DigestVerify(context, sig.baseAddress, sig.count, $0.baseAddress, $0.count) }
        } == 1
    }

    private func withMemoryBIO(_ write: (OpaquePointer) -> Int32) throws -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { throw CryptoError.openSSL("BIO_new") }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { throw CryptoError.openSSL("PEM_write_bio") }
        var pointer: UnsafeMutablePointer<CChar>?
        let length = revue_bio_get_mem_data(bio, &pointer)
        guard let pointer, length > 0 else { throw CryptoError.openSSL("BIO_get_mem_data") }
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
    }
}

/// An OpenSSL call failed, with OpenSSL's reason read when it failed: the error queue is per
/// thread and the next call may overwrite it.
public struct CryptoError: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }

    /// `function` failed: takes (and clears) this thread's OpenSSL error queue.
    public static func openSSL(_ function: String) -> CryptoError {
        let reasons = CryptoError.takeOpenSSLErrors()
        return CryptoError(reasons.isEmpty ? "\(function) failed" : "\(function) failed: \(reasons.joined(separator: "; "))")
    }

    /// This thread's OpenSSL error queue as text, oldest first, emptied.
    public static func takeOpenSSLErrors() -> [String] {
        var reasons: [String] = []
        while case let code = ERR_get_error(), code != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            reasons.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return reasons
    }
}
