import Foundation
import JobSpec

/// What a job's pipeline process tells the worker that runs it, one JSON object per line in its
/// events file (`revue record --events FILE`).
public struct JobRunEvent: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable {
        /// The process read its spec and built its pipeline (`spec` holds it, without secrets).
        case configured
        /// The first encoded packet went to the outputs.
        case started
        /// HLS: the playlists are published.
        case playable
        /// Every second or so.
        case progress
        /// One output failed (the others go on).
        case outputFailed
        /// Who is on screen changed (`tiles`): a join, a leave, a camera, a share, a rename.
        case layout
    }

    public var event: Kind
    public var progress: JobProgress?
    public var output: String?
    public var error: String?
    public var spec: PipelineSpec?
    public var tiles: [Tile]?
    /// Media time of the event, for `layout`.
    public var at: Double?

    /// One tile of a layout, as the events file tells it.
    public struct Tile: Sendable, Codable, Equatable {
        public var participantID: String
        public var name: String
        /// `camera`, `cameraOff` or `screenShare`.
        public var content: String

        public init(participantID: String, name: String, content: String) {
            self.participantID = participantID
            self.name = name
            self.content = content
        }
    }

    public init(event: Kind, progress: JobProgress? = nil, output: String? = nil, error: String? = nil, spec: PipelineSpec? = nil,
                tiles: [Tile]? = nil, at: Double? = nil)
    {
        self.event = event
        self.progress = progress
        self.output = output
        self.error = error
        self.spec = spec
        self.tiles = tiles
        self.at = at
    }

    /// Appends events to a file, a line each, flushed as written.
    // @unchecked Sendable: writes through `handle` (a FileHandle) guarded by `lock`, so lines never interleave
    public final class Writer: @unchecked Sendable {
        private let handle: FileHandle?
        private let lock = NSLock()

        public init(path: String) {
            handle = FileManager.default.createFile(atPath: path, contents: nil) ? FileHandle(forWritingAtPath: path) : nil
        }

        public func write(_ event: JobRunEvent) {
            guard let data = try? JSONEncoder().encode(event) else { return }
            lock.lock()
            defer { lock.unlock() }
            handle?.write(data + Data("\n".utf8))
        }
    }

    /// Reads the lines appended to an events file since the last call.
    // @unchecked Sendable: confined to the worker's run-loop thread (`pollChildren`); others only hold it in `running`
    public final class Reader: @unchecked Sendable {
        public let path: String
        private var offset: UInt64 = 0
        private var partial: [UInt8] = []

        public init(path: String) {
            self.path = path
        }

        public func readNew() -> [JobRunEvent] {
            guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
            defer { try? handle.close() }
            guard (try? handle.seek(toOffset: offset)) != nil, let data = try? handle.readToEnd(), !data.isEmpty else { return [] }
            offset += UInt64(data.count)
            partial += Array(data)
            var events: [JobRunEvent] = []
            while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(partial[..<newline])
                partial.removeSubrange(...newline)
                if let event = try? JSONDecoder().decode(JobRunEvent.self, from: Data(line)) { events.append(event) }
            }
            return events
        }
    }
}
