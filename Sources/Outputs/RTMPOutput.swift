import CFFmpeg
import Encode
import Foundation
import LibAV
import Log

/// Pushes FLV (H.264 + AAC) to an RTMP or RTMPS server, as `startLivestream` asks
/// (`{url, streamKey}` → `url/streamKey`).
///
/// When the server drops the connection, it reconnects on its own with exponential backoff
/// (1, 2, 4 … 15 s) while the recording goes on; each connection starts at a keyframe with
/// timestamps from 0, so the server sees a fresh, valid stream. After `maxAttempts` failed
/// connections in a row it gives up and reports the failure; other outputs are not affected.
/// A write that stalls for `writeTimeout` counts as a drop.
///
/// It blocks while connecting and writing, so it runs behind a `QueuedSink` of its own.
// @unchecked Sendable: confined to its QueuedSink's output thread; others only call `cancel()`, which sets the atomic `stop`
public final class RTMPOutput: PacketSink, @unchecked Sendable {
    public enum State: String, Sendable {
        case connecting, streaming, waiting, failed, finished
    }

    public let url: String
    public var name: String { RTMPOutput.redacted(url) }
    public let streams: StreamLayout
    public let maxAttempts: Int
    public let writeTimeout: Double
    private let stop = StopFlag()
    private let logger: Logger
    private var muxer: OutputFormatContext?
    private var indices: [EncodedPacket.Stream: (index: Int, timeBase: AVRational)] = [:]
    /// The time, per stream, that is 0 on the current connection.
    private var origin: Double?
    private var failedAttempts = 0
    private var retryAt: Date = .distantPast
    public private(set) var state: State = .connecting
    public private(set) var connections = 0
    public private(set) var bytesWritten: Int64 = 0
    public private(set) var lastError: String?
    /// Sleeps between attempts; tests shorten it.
    public var backoff: (Int) -> Double = { attempt in min(15, pow(2, Double(max(0, attempt - 1)))) }

    /// `url` is `rtmp://host[:port]/app/key` or `rtmps://…`; a `streamKey` is appended as the
    /// last path element.
    public init(url: String, streamKey: String? = nil, streams: StreamLayout, maxAttempts: Int = 6, writeTimeout: Double = 10,
                logger: Logger = Logger(label: "rtmp")) throws
    {
        let full = RTMPOutput.url(url, streamKey: streamKey)
        guard let scheme = full.split(separator: ":").first?.lowercased(), ["rtmp", "rtmps"].contains(scheme),
              full.dropFirst(scheme.count).hasPrefix("://"), full.split(separator: "/").count >= 4
        else {
            throw OutputError(fault: .input, output: RTMPOutput.redacted(full),
                              message: "an RTMP output is rtmp://host/app/key or rtmps://host/app/key")
        }
        self.url = full
        self.streams = streams
        self.maxAttempts = maxAttempts
        self.writeTimeout = writeTimeout
        self.logger = logger.with(["output": .string(RTMPOutput.redacted(full))])
    }

    /// `{url, streamKey}` as one URL.
    public static func url(_ url: String, streamKey: String?) -> String {
        guard let key = streamKey, !key.isEmpty else { return url }
        return url.hasSuffix("/") ? url + key : url + "/" + key
    }

    /// The URL without its stream key (the last path element), for logs.
    public static func redacted(_ url: String) -> String {
        var parts = url.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count >= 5, let last = parts.last, !last.isEmpty { parts[parts.count - 1] = "***" }
        return parts.joined(separator: "/")
    }

    public func write(_ packet: EncodedPacket) throws {
        if state == .failed { throw OutputError(fault: .destination, output: name, message: lastError ?? "gave up") }
        if muxer == nil {
            // Connect only at a keyframe, so the stream starts decodable.
            let startsStream = packet.stream == .video ? packet.isKeyframe : !streams.hasVideo
            guard startsStream, Date() >= retryAt else { return }
            try connect()
            guard muxer != nil else { return }
            origin = seconds(packet)
        }
        guard let muxer, let origin, let target = indices[packet.stream] else { return }
        let time = seconds(packet) - origin
        guard time >= 0 else { return }
        let outgoing = try Packet(copying: packet.data)
        let scale = Double(target.timeBase.den) / Double(target.timeBase.num)
        outgoing.pts = Int64((time * scale).rounded())
        outgoing.dts = outgoing.pts
        outgoing.duration = packet.duration
        outgoing.isKeyframe = packet.isKeyframe
        stop.setDeadline(after: writeTimeout)
        defer { stop.setDeadline(after: nil) }
        do {
            try muxer.write(outgoing, streamIndex: target.index, from: target.timeBase)
            bytesWritten += Int64(packet.data.count)
        } catch {
            dropped(because: "the server dropped the stream: \(error.message)")
        }
    }

    public func finish() throws {
        if let muxer {
            stop.setDeadline(after: writeTimeout)
            try? muxer.finish()
        }
        muxer = nil
        if state == .failed { throw OutputError(fault: .destination, output: name, message: lastError ?? "gave up") }
        state = .finished
    }

    /// Makes blocked network I/O give up (the job is stopping).
    public func cancel() { stop.set() }

    private func connect() throws {
        state = .connecting
        stop.setDeadline(after: writeTimeout)
        defer { stop.setDeadline(after: nil) }
        do {
            let context = try OutputFormatContext(format: "flv", url: url)
            indices = [:]
            for stream in streams.streams {
                let index = try context.addStream(parameters: stream.parameters.pointer, timeBase: stream.timeBase)
                indices[stream.kind] = (index, stream.timeBase)
            }
            try context.open(url: url, options: ["rw_timeout": String(Int(writeTimeout * 1_000_000)), "tcp_nodelay": "1"],
                             interrupt: stop.interruptCallback)
            muxer = context
            connections += 1
            failedAttempts = 0
            state = .streaming
            logger.info("connected", ["connection": .of(connections)])
        } catch {
            muxer = nil
            failedAttempts += 1
            let reason = "cannot connect: \(error.message)"
            if stop.isSet || failedAttempts >= maxAttempts {
                state = .failed
                lastError = "gave up after \(failedAttempts) attempts: \(reason)"
                logger.error("output failed", ["error": .string(lastError ?? "")])
                throw OutputError(fault: .destination, output: name, message: lastError ?? reason)
            }
            state = .waiting
            lastError = reason
            retryAt = Date().addingTimeInterval(backoff(failedAttempts))
            logger.warning("connection failed; retrying", ["attempt": .of(failedAttempts), "error": .string(reason)])
        }
    }

    private func dropped(because reason: String) {
        muxer = nil
        origin = nil
        failedAttempts += 1
        lastError = reason
        state = .waiting
        retryAt = Date().addingTimeInterval(backoff(failedAttempts))
        logger.warning("stream dropped; reconnecting", ["error": .string(reason)])
    }

    private func seconds(_ packet: EncodedPacket) -> Double {
        guard let stream = streams.streams.first(where: { $0.kind == packet.stream }) else { return 0 }
        return Double(packet.pts) * Double(stream.timeBase.num) / Double(stream.timeBase.den)
    }
}

extension Error {
    var message: String { (self as? AVError)?.message ?? "\(self)" }
}
