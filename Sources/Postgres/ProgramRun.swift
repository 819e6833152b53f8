import Foundation
import Platform

/// Runs a PostgreSQL program to completion and collects what it printed.
struct ProgramRun {
    let status: Int32
    let output: String

    static func run(_ executable: String, _ arguments: [String], asUser user: String? = nil) throws(PostgresError) -> ProgramRun {
        var launchPath = executable
        var launchArguments = arguments
        if let user {
            // PostgreSQL refuses to run as root, so as root its programs run as `user`.
            launchPath = FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") ? "/usr/sbin/runuser" : "runuser"
            launchArguments = ["-u", user, "--", executable] + arguments
        }
        do {
            let result = try Subprocess.run(launchPath, launchArguments)
            return ProgramRun(status: result.status, output: result.standardOutput + result.standardError)
        } catch {
            throw PostgresError(kind: .clusterFailed, message: error.description)
        }
    }
}
