import Foundation
import MediaSource

/// A media source that writes what passes through it as a fixture (`FixtureWriter`): each
/// datagram into `capture.pcap` with its arrival time, each room event into `manifest.json`.
/// Around a live room it turns what the recorder received into a test (`revue capture`); the
/// items pass on unchanged, and the feedback goes back to the wrapped source, so a recording
/// made through it is the recording made without it.
///
/// A fixture that cannot be written (a full disk) does not stop the items: the first error is
/// kept in `failure`, and nothing more is written.
public final class CapturingSource: MediaSource {
    public let source: any MediaSource
    public let writer: FixtureWriter
    public private(set) var failure: FixtureError?
    /// Called with each room event as it passes, for progress lines.
    public var onEvent: ((RoomEvent, Double) -> Void)?

    /// Starts a fixture in `directory` with the source's participants (see `FixtureWriter`).
    public init(_ source: any MediaSource, directory: String, startTime: Double = Date().timeIntervalSince1970) throws(FixtureError) {
        self.source = source
        writer = try FixtureWriter(directory: directory, participants: source.participants, startTime: startTime)
    }

    public var participants: [ParticipantDescription] { source.participants }
    public var duration: Double? { source.duration }

    public func next(until deadline: Double) -> SourceItem {
        let item = source.next(until: deadline)
        if case .event(let event, let at) = item { onEvent?(event, at) }
        guard failure == nil else { return item }
        do {
            switch item {
            case .datagram(let bytes, let arrival): try writer.write(datagram: bytes, arrival: arrival)
            case .event(let event, let at): try writer.write(event: event, at: at)
            // A fixture keeps what the room sent; captions are made again from its audio.
            case .caption, .captionsExpected, .idle, .ended: break
            }
        } catch {
            failure = error
        }
        return item
    }

    public func send(_ feedback: Feedback) {
        source.send(feedback)
    }

    /// Finishes the fixture: the last manifest, the capture closed. It fails with the first write
    /// error, or when what was captured cannot be replayed.
    @discardableResult
    public func finish() throws(FixtureError) -> FixtureManifest {
        if let failure { throw failure }
        return try writer.finish()
    }
}
