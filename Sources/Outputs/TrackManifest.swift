import Foundation

/// `manifest.json` of a per-participant recording (issue 26 item 5; docs/OUTPUTS.md,
/// "Per-participant recordings"): each file the recording wrote, whose track it is, and where it
/// falls on the room's clock, so an editor or a transcriber lines the files up. Rewritten whole as files open and close and every
/// few seconds while they grow, so a recording that is killed still has one.
public struct TrackManifest: Sendable, Codable, Equatable {
    /// One file: one track of one participant, from its first frame to its unpublish (a track
    /// published again is a new file).
    public struct Track: Sendable, Codable, Equatable {
        public var participantId: String
        public var name: String
        /// `video` (a camera), `share` (a screen) or `audio`.
        public var kind: String
        /// `VP8`, `H264` or `opus`: as the participant sent it.
        public var codec: String
        /// The file's name, beside the manifest.
        public var file: String
        /// Where the file's time 0 is on the room's clock, in seconds.
        public var start: Double
        /// Its latest frame on the room's clock; the file's length is `end − start`.
        public var end: Double
        public var frames: Int
        public var bytes: Int64
        public var width: Int?
        public var height: Int?
        /// Audio: 1 or 2.
        public var channels: Int?
        /// Whether the file is finished (its index written); false while it grows, and in a
        /// part whose writer was killed.
        public var complete: Bool

        public init(participantId: String, name: String, kind: String, codec: String, file: String, start: Double, end: Double, frames: Int,
                    bytes: Int64, width: Int?, height: Int?, channels: Int?, complete: Bool)
        {
            self.participantId = participantId
            self.name = name
            self.kind = kind
            self.codec = codec
            self.file = file
            self.start = start
            self.end = end
            self.frames = frames
            self.bytes = bytes
            self.width = width
            self.height = height
            self.channels = channels
            self.complete = complete
        }
    }

    public static let fileName = "manifest.json"

    /// 1: this shape.
    public var version = 1
    public var roomId: String?
    /// The wall-clock time of the room clock's 0 (ISO 8601, UTC): where this part starts.
    public var startedAt: String
    /// Whether the recording finished writing every file.
    public var complete = false
    public var tracks: [Track] = []

    public init(roomId: String?, startedAt: Date) {
        self.roomId = roomId
        self.startedAt = ISO8601DateFormatter().string(from: startedAt)
    }

    /// The room-clock time of the latest frame of any file: the part's length.
    public var duration: Double { tracks.map(\.end).max() ?? 0 }

    /// Reads a part's manifest; nil when it is missing or not one.
    public static func read(directory: String) -> TrackManifest? {
        guard let data = FileManager.default.contents(atPath: directory + "/" + fileName) else { return nil }
        return try? JSONDecoder().decode(TrackManifest.self, from: data)
    }

    /// The manifest as its file holds it.
    public func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self))
    }
}
