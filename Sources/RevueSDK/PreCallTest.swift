import Foundation
import HTTP
import OutboundHTTP
import Synchronization

/// One run of the pre-call test's network half (seed 001, `runPreCallTest`), against the room
/// server's `/v2/precall/…` (`PreCallProbe`): the round trip (the median of five pings), then
/// uploads for half the sampling time and downloads for the other half, each direction's
/// bitrate the bytes moved over the time taken, paced to at most `ceiling`.
///
/// It blocks (one HTTP request at a time over loopback or the network), so it runs on a thread
/// of its own, never on the main actor or the concurrency pool. `stop` ends it at the next
/// request: at most one chunk's time.
final class PreCallTest: Sendable {
    /// What one upload request carries, and what one download asks for: small enough that a
    /// stop is felt within a fraction of a second on a slow link, big enough that the request's
    /// own round trip is a small part of its time on a fast one.
    static let uploadChunk = 256 * 1024
    static let downloadChunk = 256 * 1024
    /// The most it sends or fetches a second: 20 Mb/s is well above what a 1080p call needs
    /// (the top quality score is 2.5 Mb/s), and a test that filled the link would flood the
    /// user's network and the server for no better answer.
    static let ceiling = 20_000_000

    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let base: String
    private let token: String
    private let duration: Double

    /// - Parameter signalingURL: the room server's `ws://host:port/v2/rtc`; its HTTP is the same host and port.
    init(signalingURL: String, token: String, duration: Double) throws(PreCallTestError) {
        guard let url = URL(string: signalingURL), let host = url.host, let scheme = url.scheme, ["ws", "wss"].contains(scheme) else {
            throw PreCallTestError.network("the room server's address \(signalingURL) is not a ws:// or wss:// URL")
        }
        base = "\(scheme == "wss" ? "https" : "http")://\(host)\(url.port.map { ":\($0)" } ?? "")/v2/precall"
        self.token = token
        self.duration = duration
    }

    var isStopped: Bool { stopped.load(ordering: .relaxed) }

    /// Asks the run to end at its next request, without waiting (a cancelled task).
    func requestStop() {
        stopped.store(true, ordering: .relaxed)
    }

    /// Asks the run to end, and waits until it has (`stopPreCallTest` returns once stopped).
    func stop() async {
        stopped.store(true, ordering: .relaxed)
        let finished = finished
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Room.inBackground {
                finished.wait()
                finished.signal()
                done.resume()
            }
        }
    }

    /// Runs on the SDK's blocking queue (`Room.blockingWork`); `progress` gets each new figure (about once a second).
    /// Returns nil when stopped before a figure.
    func run(progress: @escaping @Sendable (PreCallNetworkQuality) -> Void) async throws(PreCallTestError) -> PreCallNetworkQuality? {
        let outcome: Result<PreCallNetworkQuality?, PreCallTestError> = await withCheckedContinuation { done in
            Room.inBackground { [self] in
                let result: Result<PreCallNetworkQuality?, PreCallTestError>
                do throws(PreCallTestError) {
                    result = .success(try measure(progress: progress))
                } catch {
                    result = .failure(error)
                }
                finished.signal()
                done.resume(returning: result)
            }
        }
        return try outcome.get()
    }

    private func measure(progress: @Sendable (PreCallNetworkQuality) -> Void) throws(PreCallTestError) -> PreCallNetworkQuality? {
        var roundTrips: [Double] = []
        for _ in 0..<5 where !isStopped {
            let start = Date()
            _ = try request("GET", "/ping")
            roundTrips.append(Date().timeIntervalSince(start) * 1000)
        }
        guard !roundTrips.isEmpty else { return nil }
        let roundTrip = roundTrips.sorted()[roundTrips.count / 2]
        let unmeasured = PreCallLinkQuality(quality: 0, bitrate: 0, roundTripTime: roundTrip)
        var latest = PreCallNetworkQuality(uplink: unmeasured, downlink: unmeasured)
        let upload = [UInt8](repeating: 0x5A, count: Self.uploadChunk)
        for direction in ["up", "down"] {
            let started = Date()
            var bytes = 0
            var reported = started
            while !isStopped && Date().timeIntervalSince(started) < duration / 2 {
                if direction == "up" {
                    _ = try request("POST", "/upload", body: upload)
                    bytes += upload.count
                } else {
                    bytes += try request("GET", "/download?bytes=\(Self.downloadChunk)").count
                }
                // Paced to the ceiling: wait until the bytes moved are the ceiling's worth.
                let due = Double(bytes * 8) / Double(Self.ceiling)
                let ahead = due - Date().timeIntervalSince(started)
                if ahead > 0 { Thread.sleep(forTimeInterval: min(ahead, max(0, duration / 2 - Date().timeIntervalSince(started)))) }
                let elapsed = max(Date().timeIntervalSince(started), 0.001)
                let link = PreCallLinkQuality.measured(bitrate: Int(Double(bytes * 8) / elapsed), roundTripTime: roundTrip)
                if direction == "up" { latest.uplink = link } else { latest.downlink = link }
                if Date().timeIntervalSince(reported) >= 1 {
                    reported = Date()
                    progress(latest)
                }
            }
        }
        progress(latest)
        return latest
    }

    /// One request to the probe; its body. A refused token is ERROR_PRECALL_INVALID_TOKEN.
    private func request(_ method: String, _ path: String, body: [UInt8] = []) throws(PreCallTestError) -> [UInt8] {
        let response: HTTPClient.Response
        do {
            response = try HTTPClient.request(method, base + path, body: body, headers: [("Authorization", token)], timeout: 10)
        } catch {
            throw PreCallTestError.network("the room server at \(base) did not answer: \(error)")
        }
        switch response.status {
        case 200, 204: return response.body
        case 401: throw PreCallTestError.invalidToken("the room server refused the token")
        default: throw PreCallTestError.network("the room server answered \(response.status) to \(method) \(path)")
        }
    }
}
