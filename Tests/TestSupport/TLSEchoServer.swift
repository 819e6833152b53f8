import Foundation
import Platform
import Postgres

/// An https server on a free loopback port (Python's http.server wrapped in ssl), with a
/// self-signed certificate made by the openssl command for `names` (DNS and IP subject
/// alternative names). It answers each POST with 200 and the body it got.
public final class TLSEchoServer: @unchecked Sendable {
    public let port: Int
    /// The server's certificate, PEM: the CA file a client must trust.
    public let certificate: String
    private let process: Subprocess
    private let directory: TemporaryDirectory

    public init(subjectAlternativeNames names: String = "IP:127.0.0.1") throws {
        directory = try TemporaryDirectory(prefix: "tls-echo")
        certificate = directory.file("cert.pem")
        let key = directory.file("key.pem")
        let made = try Subprocess.run("openssl", [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=revue-test",
            "-addext", "subjectAltName=\(names)", "-keyout", key, "-out", certificate,
        ])
        guard made.succeeded else { throw ToolError("openssl req failed: \(made.standardError)") }
        port = try PostgresCluster.freeLoopbackPort()
        let script = """
            import http.server, ssl, sys
            class Echo(http.server.BaseHTTPRequestHandler):
                def do_POST(self):
                    body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                    self.send_response(200)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                def log_message(self, *args):
                    pass
            server = http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Echo)
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(sys.argv[2], sys.argv[3])
            server.socket = context.wrap_socket(server.socket, server_side=True)
            server.serve_forever()
            """
        process = try Subprocess("python3", ["-c", script, String(port), certificate, key], standardOutput: .discard,
                                 standardError: .discard)
        for _ in 0..<100 {
            if (try? TCP.connect(host: "127.0.0.1", port: port, timeout: 1)).map({ close($0) }) != nil { return }
            usleep(50_000)
        }
        throw ToolError("the TLS echo server did not start")
    }

    deinit {
        process.signal(SIGKILL)
        process.wait()
    }

    public func url(host: String = "127.0.0.1", _ path: String = "hook") -> String { "https://\(host):\(port)/\(path)" }
}
