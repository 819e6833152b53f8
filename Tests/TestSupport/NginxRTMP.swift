import Foundation
import Platform
import Postgres

/// nginx with Debian's RTMP module (libnginx-mod-rtmp) on a free loopback port, recording every
/// stream it receives (`record all`) into a temporary directory. Tests start, stop and restart
/// it to see what an RTMP output does when its server goes away.
public final class NginxRTMP: @unchecked Sendable {
    public let directory: TemporaryDirectory
    public let port: Int
    public var recordings: String { directory.file("rec") }
    private var process: Subprocess?

    public init() throws {
        directory = try TemporaryDirectory(prefix: "nginx-rtmp")
        port = try PostgresCluster.freeLoopbackPort()
        try FileManager.default.createDirectory(atPath: directory.file("rec"), withIntermediateDirectories: true)
        let module = ["/usr/lib/nginx/modules/ngx_rtmp_module.so", "/usr/share/nginx/modules/ngx_rtmp_module.so"]
            .first { FileManager.default.fileExists(atPath: $0) }
        guard let module else { throw ToolError("the nginx RTMP module is not installed (apt-get install libnginx-mod-rtmp)") }
        let configuration = """
            load_module \(module);
            daemon off;
            master_process off;
            pid \(directory.file("nginx.pid"));
            events { worker_connections 64; }
            rtmp {
                server {
                    listen 127.0.0.1:\(port);
                    chunk_size 4096;
                    application live {
                        live on;
                        record all;
                        record_path \(directory.file("rec"));
                        record_unique on;
                    }
                }
            }
            """
        try configuration.write(toFile: directory.file("nginx.conf"), atomically: true, encoding: .utf8)
        try start()
    }

    deinit { stop() }

    /// The URL of a stream on this server.
    public func url(stream: String) -> String { "rtmp://127.0.0.1:\(port)/live/\(stream)" }

    /// Starts nginx and waits until it accepts connections.
    public func start() throws {
        guard process == nil else { return }
        let nginx = FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx") ? "/usr/sbin/nginx" : "nginx"
        process = try Subprocess(nginx, ["-c", directory.file("nginx.conf"), "-p", directory.path, "-e", directory.file("error.log")],
                                 standardOutput: .discard, standardError: .file(directory.file("stderr.log")))
        for _ in 0..<100 {
            if NginxRTMP.accepts(port: port) { return }
            if let ended = process?.poll() {
                process = nil
                let log = (try? String(contentsOfFile: directory.file("error.log"), encoding: .utf8)) ?? ""
                throw ToolError("nginx exited (\(ended)): \(log.suffix(500))")
            }
            usleep(50_000)
        }
        throw ToolError("nginx did not listen on \(port)")
    }

    /// Stops nginx (SIGTERM: connections close at once).
    public func stop() {
        guard let process else { return }
        process.signal(SIGTERM)
        if process.wait(timeout: 10) == nil {
            process.signal(SIGKILL)
            process.wait()
        }
        self.process = nil
    }

    /// The FLV files recorded so far, oldest first.
    public func recordedFiles() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: recordings)) ?? []
        return names.filter { $0.hasSuffix(".flv") }.sorted().map { recordings + "/" + $0 }
    }

    static func accepts(port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }
}
