import Foundation
import Platform
import Postgres
import WebSocket

/// A page a browser test drives: JavaScript evaluated in it, and a picture of it.
public protocol BrowserTab {
    /// Evaluates JavaScript (a promise is awaited) and returns its JSON-compatible value.
    func evaluate(_ expression: String, userGesture: Bool) throws -> Any?
    /// A PNG of what the tab shows.
    func screenshot() throws -> [UInt8]
}

extension BrowserTab {
    public func evaluate(_ expression: String) throws -> Any? { try evaluate(expression, userGesture: false) }
}

extension HeadlessChromium.Page: BrowserTab {}

/// Headless Firefox ESR (Debian's package) driven over WebDriver BiDi
/// (https://w3c.github.io/webdriver-bidi/), which Firefox serves itself on
/// `--remote-debugging-port`: no geckodriver. One browsing context, the window it opens with.
public final class HeadlessFirefox: @unchecked Sendable {
    public let port: Int
    private let profile: TemporaryDirectory
    private var process: Subprocess?
    private let socket: WebSocketClient
    private var nextID = 0

    public init(width: Int = 1280, height: Int = 900) throws {
        port = try PostgresCluster.freeLoopbackPort()
        profile = try TemporaryDirectory(prefix: "firefox")
        guard let binary = ["/usr/bin/firefox-esr", "/usr/bin/firefox"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw ToolError("Firefox is not installed (apt-get install firefox-esr)")
        }
        // Media plays without a gesture; nothing is fetched from Mozilla's servers.
        let preferences = [
            #"user_pref("media.autoplay.default", 0);"#, #"user_pref("browser.shell.checkDefaultBrowser", false);"#,
            #"user_pref("datareporting.policy.dataSubmissionEnabled", false);"#, #"user_pref("app.update.disabledForTesting", true);"#,
            #"user_pref("browser.startup.homepage_override.mstone", "ignore");"#, #"user_pref("network.captive-portal-service.enabled", false);"#,
            #"user_pref("extensions.update.enabled", false);"#, #"user_pref("browser.safebrowsing.update.enabled", false);"#,
            #"user_pref("media.volume_scale", "0.0");"#,
        ]
        try (preferences.joined(separator: "\n") + "\n").write(toFile: profile.file("user.js"), atomically: true, encoding: .utf8)
        let log = profile.file("firefox.log")
        process = try Subprocess(binary, ["--headless", "--no-remote", "--profile", profile.path, "--remote-debugging-port", String(port),
                                          "--width", String(width), "--height", String(height), "about:blank"],
                                 environment: ["MOZ_CRASHREPORTER_DISABLE": "1", "HOME": profile.path],
                                 standardOutput: .file(profile.file("stdout.log")), standardError: .file(log))
        var connected: WebSocketClient?
        for _ in 0..<200 {
            let printed = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if printed.contains("WebDriver BiDi listening") {
                connected = try? WebSocketClient(url: "ws://127.0.0.1:\(port)/session", configuration: Self.configuration)
                if connected != nil { break }
            }
            usleep(100_000)
        }
        guard let connected else {
            process?.signal(SIGKILL)
            process?.wait()
            throw ToolError("Firefox did not start: \((try? String(contentsOfFile: log, encoding: .utf8))?.suffix(800) ?? "")")
        }
        socket = connected
        _ = try call("session.new", ["capabilities": [String: Any]()])
    }

    deinit {
        _ = try? call("session.end")
        process?.signal(SIGKILL)
        process?.wait()
    }

    /// DevTools answers can be large (screenshots): allow 64 MiB messages.
    private static var configuration: WebSocketConnection.Configuration {
        var configuration = WebSocketClient.defaultConfiguration
        configuration.maxMessageSize = 64 << 20
        return configuration
    }

    /// The window's browsing context, navigated to `url` (waiting for its load).
    public func open(_ url: String) throws -> Tab {
        let tree = try call("browsingContext.getTree")
        guard let context = (tree["contexts"] as? [[String: Any]])?.first?["context"] as? String else {
            throw ToolError("Firefox has no browsing context: \(tree)")
        }
        _ = try call("browsingContext.navigate", ["context": context, "url": url, "wait": "complete"])
        return Tab(browser: self, context: context)
    }

    /// Sends a command and waits for its result (events in between are skipped).
    func call(_ method: String, _ parameters: [String: Any] = [:]) throws -> [String: Any] {
        nextID += 1
        let id = nextID
        let message = try JSONSerialization.data(withJSONObject: ["id": id, "method": method, "params": parameters])
        try socket.send(text: String(decoding: message, as: UTF8.self))
        while true {
            guard case .text(let reply) = try socket.receive(timeout: 60) else { continue }
            guard let object = try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any], object["id"] as? Int == id else { continue }
            if object["type"] as? String == "error" {
                throw ToolError("\(method) failed: \(object["error"] ?? "") \(object["message"] ?? "")")
            }
            return object["result"] as? [String: Any] ?? [:]
        }
    }

    /// One browsing context of the window.
    public struct Tab: BrowserTab {
        let browser: HeadlessFirefox
        let context: String

        /// Evaluates a script (statements too: its value is the last one's, as Chromium's
        /// `Runtime.evaluate`) and returns its value as JSON would give it.
        public func evaluate(_ expression: String, userGesture: Bool = false) throws -> Any? {
            let result = try browser.call("script.evaluate", ["expression": expression, "target": ["context": context], "awaitPromise": true,
                                                              "userActivation": userGesture, "resultOwnership": "none"])
            if result["type"] as? String == "exception" {
                let details = result["exceptionDetails"] as? [String: Any]
                throw ToolError("the page threw: \(details?["text"] ?? result)")
            }
            return Self.value(of: result["result"])
        }

        /// A BiDi remote value (https://w3c.github.io/webdriver-bidi/#type-script-RemoteValue)
        /// as Foundation's JSON values: null, numbers, strings, booleans, arrays, objects;
        /// nodes, functions and the like are nil.
        static func value(of remote: Any?) -> Any? {
            guard let remote = remote as? [String: Any], let type = remote["type"] as? String else { return nil }
            switch type {
            case "null": return NSNull()
            case "string", "boolean": return remote["value"]
            case "number":
                if let number = remote["value"] as? NSNumber { return number }
                return Double(remote["value"] as? String ?? "") ?? .nan
            case "array":
                return (remote["value"] as? [Any] ?? []).map { value(of: $0) ?? NSNull() }
            case "object":
                var object: [String: Any] = [:]
                for pair in remote["value"] as? [[Any]] ?? [] where pair.count == 2 {
                    if let key = pair[0] as? String { object[key] = value(of: pair[1]) ?? NSNull() }
                }
                return object
            default:
                return nil
            }
        }

        public func screenshot() throws -> [UInt8] {
            let result = try browser.call("browsingContext.captureScreenshot", ["context": context])
            guard let text = result["data"] as? String, let data = Data(base64Encoded: text) else { throw ToolError("Firefox gave no screenshot") }
            return Array(data)
        }
    }
}
