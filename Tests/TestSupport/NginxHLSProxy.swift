import Foundation
import Platform
import Postgres

/// nginx from Debian in front of an HLS origin, as a deployment puts it: HTTP/2 over TLS (a
/// certificate made for the test) and HTTP/1.1 on two loopback ports, proxying to the origin.
/// Playlist requests with `_HLS_msn` are cached and collapsed (`proxy_cache_lock`), as a CDN
/// does, so any number of viewers waiting for one part make one request to the origin; every
/// other request goes through uncached. docs/OUTPUTS.md shows the same configuration.
public final class NginxHLSProxy: @unchecked Sendable {
    public let directory: TemporaryDirectory
    public let tlsPort: Int
    public let plainPort: Int
    private var process: Subprocess?

    public init(origin: Int) throws {
        directory = try TemporaryDirectory(prefix: "nginx-hls")
        tlsPort = try PostgresCluster.freeLoopbackPort()
        plainPort = try PostgresCluster.freeLoopbackPort()
        let certificate = try Subprocess.run("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                                                         "-keyout", directory.file("key.pem"), "-out", directory.file("cert.pem"), "-days", "1",
                                                         "-subj", "/CN=127.0.0.1"])
        guard certificate.succeeded else { throw ToolError("openssl could not make a certificate: \(certificate.standardError)") }
        let path = directory.path
        let configuration = """
            daemon off;
            master_process off;
            pid \(path)/nginx.pid;
            error_log \(path)/error.log;
            events { worker_connections 4096; }
            http {
                access_log off;
                client_body_temp_path \(path)/body;
                proxy_temp_path \(path)/proxy;
                fastcgi_temp_path \(path)/fastcgi;
                uwsgi_temp_path \(path)/uwsgi;
                scgi_temp_path \(path)/scgi;
                proxy_cache_path \(path)/cache keys_zone=playlists:1m max_size=16m;
                # Only blocking playlist reloads are cached: the answer to _HLS_msn=M&_HLS_part=N
                # holds that part for whoever asks the same.
                map $arg__HLS_msn $ordinary { "" 1; default 0; }
                upstream origin { server 127.0.0.1:\(origin); keepalive 32; }
                server {
                    listen 127.0.0.1:\(tlsPort) ssl http2;
                    listen 127.0.0.1:\(plainPort);
                    ssl_certificate \(path)/cert.pem;
                    ssl_certificate_key \(path)/key.pem;
                    location / {
                        proxy_pass http://origin;
                        proxy_http_version 1.1;
                        proxy_set_header Connection "";
                        # A blocking reload is held up to three target durations.
                        proxy_read_timeout 30s;
                        proxy_cache playlists;
                        proxy_cache_key $request_uri;
                        proxy_cache_lock on;
                        proxy_cache_lock_timeout 30s;
                        proxy_cache_lock_age 30s;
                        proxy_no_cache $ordinary;
                        proxy_cache_bypass $ordinary;
                    }
                }
            }
            """
        try configuration.write(toFile: directory.file("nginx.conf"), atomically: true, encoding: .utf8)
        let nginx = FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx") ? "/usr/sbin/nginx" : "nginx"
        process = try Subprocess(nginx, ["-c", directory.file("nginx.conf"), "-p", path, "-e", directory.file("error.log")],
                                 standardOutput: .discard, standardError: .file(directory.file("stderr.log")))
        for _ in 0..<100 {
            if NginxRTMP.accepts(port: plainPort) && NginxRTMP.accepts(port: tlsPort) { return }
            if let ended = process?.poll() {
                process = nil
                throw ToolError("nginx exited (\(ended)): \(((try? String(contentsOfFile: directory.file("error.log"), encoding: .utf8)) ?? "").suffix(500))")
            }
            usleep(50_000)
        }
        throw ToolError("nginx did not listen on \(plainPort) and \(tlsPort)")
    }

    deinit {
        process?.signal(SIGTERM)
        if process?.wait(timeout: 10) == nil {
            process?.signal(SIGKILL)
            process?.wait()
        }
    }
}
