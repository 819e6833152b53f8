import API
import Net
import Crypto
import Foundation
import JobSpec
import Jobs
import Log
import Media
import Migrations
import Postgres

/// What `serve`, `worker`, `demo`, `token` and `jobs` share: the database (migrated), the
/// storage directory, the API credentials and the webhook signing key.
enum ServiceSetup {
    static let listen = OptionSpec("listen", value: "HOST:PORT", help: "Where the API listens.", environment: "REVUE_LISTEN",
                                   default: "127.0.0.1:8080")
    static let storage = OptionSpec("storage", value: "DIR",
                                    help: "Where recordings and HLS are written and served from (default: HOME/storage).",
                                    environment: "REVUE_STORAGE")
    static let fixtureRooms = OptionSpec("fixture-rooms", value: "DIR",
                                         help: "Rooms from recorded fixtures: room X is DIR/X, replayed live and looped.",
                                         environment: "REVUE_FIXTURE_ROOMS")
    static let publicURL = OptionSpec("public-url", value: "URL", help: "The base of fileUrl and playlist URLs (default: http://LISTEN).",
                                      environment: "REVUE_PUBLIC_URL")
    static let maxJobs = OptionSpec("max-jobs", value: "N", help: "Jobs this worker runs at once.", environment: "REVUE_MAX_JOBS",
                                    default: "4")
    static let maxCPU = OptionSpec("max-cpu", value: "CORES",
                                   help: "The cores this worker's jobs take together, by their cost (docs/CLUSTER.md, \"Workers\"; default: the machine's).",
                                   environment: "REVUE_MAX_CPU")
    static let workerID = OptionSpec("worker-id", value: "ID", help: "This worker's name in the job tables (default: host-pid).",
                                     environment: "REVUE_WORKER_ID")
    static let nodeID = OptionSpec("node-id", value: "ID",
                                   help: "This room server's name in the cluster's nodes table (default: host-PORT). docs/CLUSTER.md.",
                                   environment: "REVUE_NODE_ID")
    static let region = OptionSpec("region", value: "NAME", help: "The region this node is in; rooms are placed in the door's region first.",
                                   environment: "REVUE_REGION", default: "")
    static let maxRooms = OptionSpec("max-rooms", value: "N", help: "Rooms placed on this node at most; then they go to other nodes.",
                                     environment: "REVUE_MAX_ROOMS", default: "1000")
    static let drainTimeout = OptionSpec("drain-timeout", value: "SECONDS",
                                         help: "On SIGTERM, how long this node's rooms may carry on (taking no new ones) before they are moved to other nodes.",
                                         environment: "REVUE_DRAIN_TIMEOUT", default: "30")
    static let rtcListen = OptionSpec("rtc-listen", value: "HOST:PORT",
                                      help: "The one UDP port WebRTC media uses (STUN, DTLS, SRTP for every peer); port 0 picks one.",
                                      environment: "REVUE_RTC_LISTEN", default: "127.0.0.1:0")
    static let rtcAnnounce = OptionSpec("rtc-announce", value: "IP",
                                        help: "The address written in ICE candidates, when peers reach the server at another (NAT, a public IP).",
                                        environment: "REVUE_RTC_ANNOUNCE")
    static let rtcSetupTimeout = OptionSpec("rtc-setup-timeout", value: "SECONDS",
                                            help: "How long a new WebRTC connection may take to finish ICE and DTLS before it is closed (1-300).",
                                            environment: "REVUE_RTC_SETUP_TIMEOUT", default: "20")
    static let videoCodecs = OptionSpec("video-codecs", value: "LIST",
                                        help: "The video codecs publishers may send, in the order preferred: VP8, H264 or both, comma-separated; a camera in another is refused.",
                                        environment: "REVUE_VIDEO_CODECS", default: "VP8,H264")
    static let maxConnectionsPerSource = OptionSpec("max-connections-per-source", value: "N",
                                                    help: "HTTP connections one IP address may hold open at once (0: no limit; behind a proxy, every client has its address).",
                                                    environment: "REVUE_MAX_CONNECTIONS_PER_SOURCE", default: "256")
    static let allowDestination = OptionSpec("allow-destination", value: "URL-PREFIX",
                                             help: "A place participants may send a job they start from a room: an RTMP server, a webhookUrl or preSignedUrl (repeatable; the variable takes a comma-separated list). None by default.",
                                             environment: "REVUE_ALLOWED_DESTINATIONS", repeatable: true)

    /// `--video-codecs` as the room server's codecs, each known and named once.
    static func videoCodecs(_ arguments: ParsedArguments, command: String) throws(UsageError) -> [TrackCodec] {
        guard let text = arguments.value("video-codecs") else { return [.vp8, .h264] }
        var codecs: [TrackCodec] = []
        for name in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let codec = TrackCodec(encodingName: name), !codec.isAudio else {
                throw UsageError("--video-codecs takes VP8 and H264, not '\(name)'", command: command)
            }
            guard !codecs.contains(codec) else { throw UsageError("--video-codecs names \(codec.rawValue) twice", command: command) }
            codecs.append(codec)
        }
        guard !codecs.isEmpty else { throw UsageError("--video-codecs needs VP8, H264 or both", command: command) }
        return codecs
    }

    /// `--allow-destination` (or the comma-separated variable) as an allow-list.
    static func clientDestinations(_ arguments: ParsedArguments, command: String) throws -> DestinationAllowList {
        let prefixes = arguments.values("allow-destination").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        do {
            return try DestinationAllowList(prefixes)
        } catch {
            throw UsageError("--allow-destination: \(error.message)", command: command)
        }
    }

    static let noRooms = OptionSpec("no-rooms", help: "Do not run the room server (WebRTC, signalling, WHIP, the join page).",
                                    environment: "REVUE_NO_ROOMS")
    static let migrations = OptionSpec("migrations", value: "DIR",
                                       help: "Read migrations from DIR instead of those built into the binary.",
                                       environment: "REVUE_MIGRATIONS_DIR")

    /// The database, with migrations applied.
    static func database(_ arguments: ParsedArguments) throws -> DatabaseTarget {
        let database = try DatabaseTarget.resolve(arguments)
        do {
            let migrator = try Migrator.from(directory: arguments.value("migrations"))
            try migrator.migrate(try database.connect())
        } catch {
            database.close()
            throw error
        }
        return database
    }

    static func home(_ arguments: ParsedArguments) -> String {
        URL(fileURLWithPath: arguments.value("home") ?? "./.revue").standardizedFileURL.path
    }

    /// `REVUE_API_KEY` and `REVUE_API_SECRET`, or a pair made once and kept in HOME/api-credentials.json.
    static func authenticator(home: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Authenticator {
        if let existing = try existingAuthenticator(home: home, environment: environment) { return existing }
        let path = home + "/api-credentials.json"
        let key = UUID().uuidString.lowercased()
        let secret = Hex.encode((0..<32).map { _ in UInt8.random(in: 0...255) })
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let data = try JSONSerialization.data(withJSONObject: ["apiKey": key, "secret": secret], options: [.sortedKeys])
        guard FileManager.default.createFile(atPath: path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw UsageError("cannot write \(path)")
        }
        Logger(label: "api").info("made API credentials for development", ["path": .string(path)])
        return Authenticator(apiKey: key, secret: secret)
    }

    /// `REVUE_API_KEY` and `REVUE_API_SECRET`, or the pair in HOME/api-credentials.json; nil when
    /// there is neither (a client such as `revue capture` must not make a pair the server lacks).
    static func existingAuthenticator(home: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws
        -> Authenticator?
    {
        if let key = environment["REVUE_API_KEY"], let secret = environment["REVUE_API_SECRET"], !key.isEmpty, !secret.isEmpty {
            return Authenticator(apiKey: key, secret: secret)
        }
        guard let data = FileManager.default.contents(atPath: home + "/api-credentials.json"),
              let object = try JSONSerialization.jsonObject(with: data) as? [String: String], let key = object["apiKey"],
              let secret = object["secret"]
        else { return nil }
        return Authenticator(apiKey: key, secret: secret)
    }

    /// The webhook signing key: `REVUE_WEBHOOK_KEY` (a PEM file), or HOME/webhook-signing-key.pem, made on first start.
    static func signer(home: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> RSAKeyPair {
        try RSAKeyPair.loadOrCreate(at: environment["REVUE_WEBHOOK_KEY"] ?? home + "/webhook-signing-key.pem")
    }

    /// The server's object storage from the environment (docs/STORAGE.md), or nil when
    /// `REVUE_S3_BUCKET` is not set. Never from flags: the secret would show in `ps`.
    static func objectStorage(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ObjectStorageConfig? {
        do {
            return try ObjectStorageConfig.fromEnvironment(environment)
        } catch {
            throw UsageError("object storage: \(error)")
        }
    }

    /// The language model that writes transcripts' summaries (`REVUE_SUMMARY_URL`,
    /// `REVUE_SUMMARY_MODEL`, `REVUE_SUMMARY_API_KEY`; docs/TRANSCRIPTION.md), or nil.
    static func summaryEndpoint(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> SummaryEndpoint? {
        do {
            return try SummaryEndpoint.fromEnvironment(environment)
        } catch {
            throw UsageError("summaries: \(error)")
        }
    }

    /// `REVUE_FILE_URL_TTL`: seconds a signed `/files/` URL stays valid (default a day).
    static func fileURLLifetime(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Int {
        guard let text = environment["REVUE_FILE_URL_TTL"], !text.isEmpty else { return 86_400 }
        guard let seconds = Int(text), seconds >= 60, seconds <= 31_536_000 else {
            throw UsageError("REVUE_FILE_URL_TTL must be 60 to 31536000 seconds, not '\(text)'")
        }
        return seconds
    }

    /// `--max-cpu`: a positive number of cores, decimals allowed.
    static func maxCPU(_ arguments: ParsedArguments) throws(UsageError) -> Double? {
        guard let text = arguments.value("max-cpu") else { return nil }
        guard let cores = Double(text), cores.isFinite, cores > 0, cores <= 4096 else {
            throw UsageError("'--max-cpu' needs a positive number of cores (decimals allowed), not '\(text)'", command: arguments.spec.name)
        }
        return cores
    }

    static func hostAndPort(_ text: String, command: String) throws(UsageError) -> (String, Int) {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let port = Int(parts[1]), (0...65535).contains(port) else {
            throw UsageError("--listen needs HOST:PORT, not '\(text)'", command: command)
        }
        return (String(parts[0]), port)
    }

    /// How a worker joins live rooms: the room server's signalling at the API's public URL, and
    /// hidden recorder tokens signed with the API secret. A token lasts a day: the recorder joins
    /// again with the same token after a network blip, hours into a recording, and a worker that
    /// takes the job over signs a fresh one.
    static func liveRoomAccess(publicURL: String, authenticator: Authenticator) -> Worker.Configuration.LiveRoomAccess {
        Worker.Configuration.LiveRoomAccess(signalingURL: signalingURL(publicURL: publicURL), token: { roomID, participantID in
            try recorderToken(authenticator, roomID: roomID, participantID: participantID)
        })
    }

    /// The room server's signalling endpoint under its public URL.
    static func signalingURL(publicURL: String) -> String {
        let base = publicURL.hasPrefix("https://") ? "wss://" + publicURL.dropFirst(8) : "ws://" + publicURL.replacingOccurrences(of: "http://", with: "")
        return base + "/v2/rtc"
    }

    /// A hidden recorder's token for one room (the `recorder` claim only the API secret can sign).
    static func recorderToken(_ authenticator: Authenticator, roomID: String, participantID: String) throws -> String {
        try authenticator.token(roles: [.rtc], permissions: [.allowJoin], roomID: roomID, participantID: participantID, expiresIn: 86_400,
                                recorder: true)
    }

    /// `HOST:PORT` as a socket address.
    static func socketAddress(_ text: String, flag: String, command: String) throws(UsageError) -> SocketAddress {
        guard let address = SocketAddress(text) else { throw UsageError("--\(flag) needs HOST:PORT with an IP address, not '\(text)'", command: command) }
        return address
    }

    /// The path of this executable, which workers run for each job.
    static var executable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    static func defaultWorkerID() -> String {
        "\(hostName())-\(getpid())"
    }

    /// A node's default id: its host and HTTP port, the same after a restart (its rooms' old
    /// placements are its own to clear), different for two nodes on one host.
    static func defaultNodeID(port: Int) -> String {
        "\(hostName())-\(port)"
    }

    static func hostName() -> String {
        var name = [CChar](repeating: 0, count: 256)
        gethostname(&name, 255)
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
