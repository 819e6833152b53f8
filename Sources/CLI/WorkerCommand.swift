import Fixture
import Foundation
import Jobs
import Postgres
import Storage

/// `revue worker`: a worker alone.
enum WorkerCommand: RevueCommand {
    static let spec = CommandSpec(
        ["worker"],
        summary: "Run recording, HLS and livestream jobs from the database.",
        discussion: """
            Claims jobs (FOR UPDATE SKIP LOCKED), runs each in a child process, holds a lease it renews, and takes over jobs
            whose worker died. SIGTERM: no new jobs; running ones finish their part and are handed back. docs/JOBS.md.
            """,
        options: CommonOptions.database + [ServiceSetup.storage, ServiceSetup.fixtureRooms, ServiceSetup.maxJobs, ServiceSetup.maxCPU, ServiceSetup.workerID,
                                           ServiceSetup.migrations,
                                           OptionSpec("public-url", value: "URL",
                                                      help: "The API's public base URL, for the file URLs webhooks carry.",
                                                      environment: "REVUE_PUBLIC_URL", default: "http://127.0.0.1:8080")]
            + CommonOptions.logging)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let maxJobs = try arguments.integer("max-jobs", in: 1...256) ?? 4
        let database = try ServiceSetup.database(arguments)
        defer { database.close() }
        let home = ServiceSetup.home(arguments)
        let storage = URL(fileURLWithPath: arguments.value("storage") ?? home + "/storage").standardizedFileURL.path
        try FileManager.default.createDirectory(atPath: storage, withIntermediateDirectories: true)
        // File URLs in webhooks are signed with the API's secret (the same REVUE_API_SECRET, or the same HOME).
        let objectStorage = try ServiceSetup.objectStorage()
        let signer = FileURLSigner(apiSecret: try ServiceSetup.authenticator(home: home).secret, lifetime: try ServiceSetup.fileURLLifetime())
        let urls = JobURLs(publicURL: arguments.value("public-url") ?? "http://127.0.0.1:8080", signer: signer,
                           storage: objectStorage.map(S3Client.init(config:)))
        let store = JobStore(pool: PostgresPool(database.connectionString, size: 4),
                             webhookData: { job, event, base in urls.webhookData(job, event: event, base: base) })
        var configuration = Worker.Configuration(
            workerID: arguments.value("worker-id") ?? ServiceSetup.defaultWorkerID(), maxJobs: maxJobs, storage: storage,
            fixtureRooms: arguments.value("fixture-rooms").map { FixtureRooms(directory: URL(fileURLWithPath: $0).standardizedFileURL.path) },
            executable: ServiceSetup.executable, objectStorage: objectStorage)
        configuration.summaryEndpoint = try ServiceSetup.summaryEndpoint()
        if let cores = try ServiceSetup.maxCPU(arguments) { configuration.maxCPU = cores }
        // Live rooms are joined at the API's public URL, where the room server runs.
        configuration.liveRooms = ServiceSetup.liveRoomAccess(publicURL: arguments.value("public-url") ?? "http://127.0.0.1:8080",
                                                              authenticator: try ServiceSetup.authenticator(home: home))
        let worker = Worker(store: store, configuration: configuration)
        StopSignal.install()
        worker.run(shouldStop: { StopSignal.requested })
        return 0
    }
}
