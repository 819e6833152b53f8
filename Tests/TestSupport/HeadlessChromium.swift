import Foundation
import Platform
import Postgres
import WebSocket

/// Headless Chromium (Debian's package) driven over the DevTools protocol, for tests that play
/// HLS and join rooms the way a browser does.
public final class HeadlessChromium: @unchecked Sendable {
    public let port: Int
    private let profile: TemporaryDirectory
    private var process: Subprocess?

    /// The flags a WebRTC page needs on a loopback-only network (research/webrtc-interop.md §8):
    /// loopback candidates allowed and not hidden behind mDNS, and a fake camera and microphone,
    /// from files when given (a y4m and a wav) so their content is known.
    public static func webRTCArguments(video: String? = nil, audio: String? = nil) -> [String] {
        var arguments = ["--allow-loopback-in-peer-connection", "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                         "--disable-features=WebRtcHideLocalIpsWithMdns"]
        if let video { arguments.append("--use-file-for-fake-video-capture=\(video)") }
        if let audio { arguments.append("--use-file-for-fake-audio-capture=\(audio)") }
        return arguments
    }

    public init(arguments extra: [String] = []) throws {
        port = try PostgresCluster.freeLoopbackPort()
        profile = try TemporaryDirectory(prefix: "chromium")
        let binary = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let binary else { throw ToolError("Chromium is not installed (apt-get install chromium)") }
        process = try Subprocess(binary, [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--autoplay-policy=no-user-gesture-required",
            "--remote-debugging-port=\(port)", "--remote-allow-origins=*", "--user-data-dir=\(profile.path)",
            "--no-first-run", "--mute-audio",
        ] + extra + ["about:blank"], standardOutput: .discard, standardError: .file(profile.file("chrome.log")))
        // A cold start on two loaded cores has taken more than 10 s (a CI-length live run).
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if (try? TCP.http("GET", "http://127.0.0.1:\(port)/json/version", timeout: 1))?.status == 200 { return }
            usleep(100_000)
        }
        throw ToolError("Chromium did not start within 30 s: \((try? String(contentsOfFile: profile.file("chrome.log"), encoding: .utf8))?.suffix(500) ?? "")")
    }

    deinit {
        process?.signal(SIGKILL)
        process?.wait()
    }

    /// A new tab showing `url`.
    public func open(_ url: String) throws -> Page {
        let created = try TCP.http("PUT", "http://127.0.0.1:\(port)/json/new?about:blank")
        guard let object = try JSONSerialization.jsonObject(with: Data(created.body)) as? [String: Any],
              let socketURL = object["webSocketDebuggerUrl"] as? String
        else { throw ToolError("Chromium did not open a tab: \(String(decoding: created.body, as: UTF8.self))") }
        // DevTools answers can be large (screenshots, evaluated values): allow 64 MiB messages.
        var configuration = WebSocketClient.defaultConfiguration
        configuration.maxMessageSize = 64 << 20
        let page = Page(socket: try WebSocketClient(url: socketURL, configuration: configuration))
        _ = try page.call("Page.enable")
        _ = try page.call("Page.navigate", ["url": url])
        return page
    }

    /// One tab, spoken to with DevTools protocol commands.
    public final class Page: @unchecked Sendable {
        private let socket: WebSocketClient
        private var nextID = 0

        init(socket: WebSocketClient) {
            self.socket = socket
        }

        /// Sends a command and waits for its result.
        public func call(_ method: String, _ parameters: [String: Any] = [:]) throws -> [String: Any] {
            nextID += 1
            let id = nextID
            let message = try JSONSerialization.data(withJSONObject: ["id": id, "method": method, "params": parameters])
            try socket.send(text: String(decoding: message, as: UTF8.self))
            while true {
                guard case .text(let reply) = try socket.receive(timeout: 60) else { continue }
                guard let object = try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any],
                      object["id"] as? Int == id
                else { continue }
                if let error = object["error"] { throw ToolError("\(method) failed: \(error)") }
                return object["result"] as? [String: Any] ?? [:]
            }
        }

        /// A PNG of what the tab shows.
        public func screenshot() throws -> [UInt8] {
            let result = try call("Page.captureScreenshot", ["format": "png"])
            guard let text = result["data"] as? String, let data = Data(base64Encoded: text) else {
                throw ToolError("Chromium gave no screenshot")
            }
            return Array(data)
        }

        /// Evaluates JavaScript and returns its JSON-compatible value. `userGesture` runs it as if
        /// the user had clicked, which APIs such as `getDisplayMedia` require.
        public func evaluate(_ expression: String, userGesture: Bool = false) throws -> Any? {
            let result = try call("Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true, "userGesture": userGesture])
            return (result["result"] as? [String: Any])?["value"]
        }
    }
}

/// `python3 -m http.server` on a free loopback port, serving a directory.
public final class StaticHTTPServer: @unchecked Sendable {
    public let port: Int
    private let process: Subprocess

    public init(directory: String) throws {
        port = try PostgresCluster.freeLoopbackPort()
        process = try Subprocess("python3", ["-m", "http.server", "--bind", "127.0.0.1", String(port), "--directory", directory],
                                 standardOutput: .discard, standardError: .discard)
        for _ in 0..<100 {
            if (try? TCP.http("GET", "http://127.0.0.1:\(port)/", timeout: 1)) != nil { return }
            usleep(50_000)
        }
        throw ToolError("the static HTTP server did not start")
    }

    deinit {
        process.signal(SIGKILL)
        process.wait()
    }

    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }
}
