import Foundation
import HTTP
import OutboundHTTP
import Synchronization
import TestSupport
import Testing

/// https:// for webhooks, against a real TLS server with a certificate made for the test.
@Suite struct HTTPClientTests {
    @Test func httpsWorksWithATrustedCertificate() throws {
        let server = try TLSEchoServer()
        let response = try HTTPClient.post(server.url(), body: Array("{\"webhookType\":\"x\"}".utf8),
                                           headers: [("Content-Type", "application/json")], caFile: server.certificate)
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "{\"webhookType\":\"x\"}")
    }

    @Test func anUntrustedCertificateIsRefused() throws {
        let server = try TLSEchoServer()
        // The system's authorities do not know the test's self-signed certificate.
        let error = #expect(throws: HTTPClient.Failure.self) { try HTTPClient.post(server.url(), body: [], headers: []) }
        #expect(error?.description.contains("certificate") == true, "\(error?.description ?? "")")
    }

    @Test func aCertificateForAnotherNameIsRefused() throws {
        let server = try TLSEchoServer(subjectAlternativeNames: "DNS:elsewhere.example")
        let error = #expect(throws: HTTPClient.Failure.self) {
            try HTTPClient.post(server.url(host: "localhost"), body: [], headers: [], caFile: server.certificate)
        }
        // curl's words: "no alternative certificate subject name matches target host name".
        #expect(error?.description.contains("subject name") == true, "\(error?.description ?? "")")
        #expect(throws: HTTPClient.Failure.self) { try HTTPClient.post(server.url(), body: [], headers: [], caFile: server.certificate) }
    }

    @Test func aServerThatDoesNotSpeakTLSFailsWithinTheTimeout() throws {
        // A plain TCP listener that never accepts: the handshake times out.
        let (listener, port) = Self.listeningSocket()
        defer { close(listener) }
        let started = Date()
        let error = #expect(throws: HTTPClient.Failure.self) {
            try HTTPClient.post("https://127.0.0.1:\(port)/", body: [], headers: [], timeout: 1)
        }
        #expect(error?.description.contains("timed out") == true, "\(error?.description ?? "")")
        #expect(Date().timeIntervalSince(started) < 10)
    }

    /// A TCP socket listening on a free loopback port.
    static func listeningSocket() -> (descriptor: Int32, port: Int) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        listen(listener, 8)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        return (listener, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Answers every connection with `response` and closes it, on a background thread. The
    /// thread closes the listening socket itself once `deinit` has shut it down: closed from
    /// here, its number could be reused by another test's listener before the thread's next
    /// `accept`, which would then answer that test's request with this response.
    final class RawServer: @unchecked Sendable {
        let descriptor: Int32
        let port: Int

        init(response: String) {
            let (listener, port) = HTTPClientTests.listeningSocket()
            descriptor = listener
            self.port = port
            Thread.detachNewThread {
                while true {
                    let client = accept(listener, nil, nil)
                    guard client >= 0 else {
                        close(listener)
                        return
                    }
                    // The whole request (headers and the two-byte body) before answering: a
                    // close with unread bytes would reset the connection under the answer.
                    var request: [UInt8] = []
                    while let chunk = try? TCP.receive(client) {
                        request += chunk
                        if let end = request.firstRange(of: Array("\r\n\r\n".utf8)), request.count >= end.upperBound + 2 { break }
                    }
                    try? TCP.send(client, Array(response.utf8))
                    close(client)
                }
            }
        }

        deinit {
            shutdown(descriptor, Int32(SHUT_RDWR))
        }
    }

    /// A receiver is not trusted: odd framing is read to the close, or refused with a clear
    /// error (a length that cannot be), never trapped on.
    @Test(arguments: [
        ("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\nbody", false),
        ("HTTP/1.1 200 OK\r\nContent-Length:\r\n\r\nbody", false),
        ("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\nbody", true),
        ("HTTP/1.1 200 OK\r\n\r\nbody", true),
    ])
    func oddResponseFramingIsReadToTheCloseOrRefused(response: String, read: Bool) throws {
        let server = RawServer(response: response)
        let answer = Result { () throws(HTTPClient.Failure) in
            try HTTPClient.post("http://127.0.0.1:\(server.port)/hook", body: Array("{}".utf8), headers: [], timeout: 5)
        }
        switch answer {
        case .success(let answer):
            #expect(read && answer.status == 200 && answer.body == Array("body".utf8))
        case .failure(let failure):
            #expect(!read && failure.description.contains("Content-Length"), "\(failure)")
        }
    }

    /// Percent-encoded bytes in a webhook URL stay encoded on the wire: a %0D%0A cannot split
    /// the request line.
    @Test func urlPathsAreSentAsWritten() throws {
        let seen = Mutex<String>("")
        let server = HTTPServer { request, _ in
            seen.withLock { $0 = request.target }
            return .response(.text(200, "ok"))
        }
        try server.start(host: "127.0.0.1", port: 0)
        defer { server.stop() }
        let response = try HTTPClient.post("http://127.0.0.1:\(server.port)/a%20b%3Ac?q=%2F", body: [], headers: [])
        #expect(response.status == 200)
        #expect(seen.withLock { $0 } == "/a%20b%3Ac?q=%2F")
        // A %0D%0A arrives encoded, as one target (the server then refuses a control character in
        // a path): no header was injected.
        let injected = try HTTPClient.post("http://127.0.0.1:\(server.port)/a%0D%0AX-Evil:%201", body: [], headers: [])
        #expect(injected.status == 400 && String(decoding: injected.body, as: UTF8.self).contains("control character"))
    }
}
