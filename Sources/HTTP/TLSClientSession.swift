import COpenSSL
import Crypto
import Foundation

/// A TLS client session over a connected socket, for https:// webhooks. It verifies the server's
/// chain against the system's CAs (or `caFile`) and the server's name (RFC 6125, through
/// `SSL_set1_host`, or the IP address for a literal), and speaks TLS 1.2 or newer (RFC 8446,
/// RFC 5246). The `SSL_CTX` and `SSL` are owned here and freed in `deinit`; the socket is not.
///
/// The socket is non-blocking: each call waits with poll(2) for what OpenSSL asks for
/// (`SSL_ERROR_WANT_READ`/`WANT_WRITE`) until the caller's deadline.
final class TLSClientSession {
    private let context: OpaquePointer
    private let ssl: OpaquePointer
    private let descriptor: Int32

    init(descriptor: Int32, host: String, caFile: String?, deadline: Double) throws(HTTPClient.Failure) {
        ERR_clear_error()
        guard let method = TLS_client_method(), let context = SSL_CTX_new(method) else {
            throw HTTPClient.Failure("TLS: SSL_CTX_new failed")
        }
        _ = revue_ssl_ctx_set_min_proto_version(context, TLS1_2_VERSION)
        if let caFile {
            guard SSL_CTX_load_verify_locations(context, caFile, nil) == 1 else {
                SSL_CTX_free(context)
                throw HTTPClient.Failure("TLS: cannot load the CA file \(caFile): \(TLSClientSession.errors())")
            }
        } else {
            SSL_CTX_set_default_verify_paths(context)
        }
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        guard let ssl = SSL_new(context) else {
            SSL_CTX_free(context)
            throw HTTPClient.Failure("TLS: SSL_new failed")
        }
        // From here deinit frees both.
        self.context = context
        self.ssl = ssl
        self.descriptor = descriptor
        var address = in6_addr()
        let isAddress = inet_pton(AF_INET, host, &address) == 1 || inet_pton(AF_INET6, host, &address) == 1
        if isAddress {
            X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host)
        } else {
            _ = revue_ssl_set_tlsext_host_name(ssl, host) // SNI (RFC 6066 §3)
            SSL_set1_host(ssl, host)
        }
        SSL_set_fd(ssl, descriptor)
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        while true {
            let result = SSL_connect(ssl)
            if result == 1 { break }
            let error = SSL_get_error(ssl, result)
            guard wait(for: error, until: deadline) else {
                if HTTPConnection.now() >= deadline { throw HTTPClient.Failure("TLS handshake with \(host) timed out") }
                let verify = SSL_get_verify_result(ssl)
                let reason = verify != X509_V_OK
                    ? String(cString: X509_verify_cert_error_string(verify)) : TLSClientSession.errors()
                throw HTTPClient.Failure("TLS handshake with \(host) failed: \(reason)")
            }
        }
    }

    deinit {
        SSL_free(ssl)
        SSL_CTX_free(context)
    }

    /// Writes all of `bytes` before `deadline`. Returns false if the peer is gone.
    func write(_ bytes: [UInt8], deadline: Double) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                SSL_write(ssl, buffer.baseAddress.map { $0 + sent }, Int32(buffer.count - sent))
            }
            if result > 0 {
                sent += Int(result)
                continue
            }
            guard wait(for: SSL_get_error(ssl, result), until: deadline) else { return false }
        }
        return true
    }

    /// Reads what is there before `deadline`.
    func read(until deadline: Double) -> HTTPConnection.ReadResult {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let result = chunk.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
            if result > 0 { return .data(Array(chunk.prefix(Int(result)))) }
            let error = SSL_get_error(ssl, result)
            if error == SSL_ERROR_ZERO_RETURN { return .closed }
            // A peer that closes without close_notify ends the body too (Connection: close).
            if error == SSL_ERROR_SYSCALL || error == SSL_ERROR_SSL { return result == 0 ? .closed : .failed }
            guard wait(for: error, until: deadline) else { return HTTPConnection.now() >= deadline ? .timedOut : .failed }
        }
    }

    /// Waits for the socket to be ready for what OpenSSL wants. False on a real error or the deadline.
    private func wait(for error: Int32, until deadline: Double) -> Bool {
        let events: Int32
        switch error {
        case SSL_ERROR_WANT_READ: events = Int32(POLLIN)
        case SSL_ERROR_WANT_WRITE: events = Int32(POLLOUT)
        default: return false
        }
        let remaining = deadline - HTTPConnection.now()
        guard remaining > 0 else { return false }
        var descriptorSet = pollfd(fd: descriptor, events: Int16(events), revents: 0)
        return poll(&descriptorSet, 1, Int32(min(remaining, 3600) * 1000) + 1) > 0
    }

    /// This thread's OpenSSL errors, taken off its queue.
    static func errors() -> String {
        let reasons = CryptoError.takeOpenSSLErrors()
        return reasons.isEmpty ? "unknown error" : reasons.joined(separator: "; ")
    }
}
