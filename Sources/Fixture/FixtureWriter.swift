import Foundation
import MediaSource
import RTP

/// Writes a fixture directory while a capture runs: each datagram goes into `capture.pcap` at
/// once, and `manifest.json` is written again (to a temporary file, then renamed over the old
/// one) whenever what it says changes: an event, the first datagram, a stream's first packet.
/// So a capture stopped at any moment, even killed, leaves a fixture `revue record --fixture`
/// replays, up to its last whole record.
///
/// The pcap's time stamps are `startTime` plus each datagram's arrival on the source's clock,
/// so the fixture's clock (seconds from its first datagram) is the source's, shifted. Every
/// datagram goes to 127.0.0.1:4000 (the recorder); it comes from port 5000 + 10 × n for the
/// n-th participant to appear (the numbering of `scripts/make-fixture`), by the SSRC it carries,
/// or from 4990 when no participant publishes that SSRC. Revue tells streams apart by SSRC, not
/// port; the ports are for people reading the capture in Wireshark.
public final class FixtureWriter {
    /// What has been written.
    public struct Counts: Sendable, Equatable {
        public var rtp = 0
        public var rtcp = 0
        /// Datagrams that are neither (too short for RTP, say): written all the same.
        public var other = 0
        /// Datagrams too large for a UDP record: not written.
        public var skipped = 0
        /// Payload bytes written.
        public var bytes: Int64 = 0
        public var events = 0

        public var datagrams: Int { rtp + rtcp + other }
    }

    public let directory: String
    public private(set) var room: CapturedRoom
    public private(set) var counts = Counts()
    /// What the manifest last written had to leave out (`CapturedRoom.manifest()`).
    public private(set) var notes: [String] = []
    private let pcap: PcapFileWriter
    private let startSeconds: UInt32
    /// The latest time written: times never go back, so the replay keeps the capture's order.
    private var clock = 0.0
    private var ports: [String: UInt16] = [:]
    private var owners: [UInt32: String] = [:]
    private var lastManifest: String?

    /// The port the recorder receives on, in the capture.
    public static let recorderPort: UInt16 = 4000
    /// The port of datagrams no participant's SSRC accounts for.
    public static let unknownSenderPort: UInt16 = 4990
    /// Past this many seconds of source time, times are held (the pcap's seconds are 32 bits).
    static let longestCapture = 100_000_000.0

    /// Starts a fixture in `directory` (made if missing; one that already holds a fixture is
    /// refused, so a capture never overwrites a test) with the participants present at the start.
    public init(directory: String, participants: [ParticipantDescription], startTime: Double = Date().timeIntervalSince1970)
        throws(FixtureError)
    {
        self.directory = directory
        for name in [Fixture.manifestName, Fixture.captureName] where FileManager.default.fileExists(atPath: directory + "/" + name) {
            throw FixtureError(.cannotWrite(path: directory, problem: "it already holds \(name); capture into a new directory"))
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw FixtureError(.cannotWrite(path: directory, problem: "\(error.localizedDescription)"))
        }
        pcap = try PcapFileWriter(path: directory + "/" + Fixture.captureName)
        let whole = startTime.isFinite ? startTime.rounded(.down) : 0
        startSeconds = UInt32(min(max(0, whole), Double(UInt32.max) - FixtureWriter.longestCapture))
        room = CapturedRoom(participants: participants)
        for participant in participants { appeared(participant) }
        try writeManifest()
    }

    /// Appends a datagram that arrived at `arrival` (seconds on the source's clock).
    public func write(datagram: [UInt8], arrival: Double) throws(FixtureError) {
        guard datagram.count <= PcapFileWriter.maximumPayload else {
            counts.skipped += 1
            return
        }
        let time = advance(to: arrival)
        let isRTCP = RTPPacket.looksLikeRTCP(datagram)
        // The SSRC that says who sent it: RTP's (RFC 3550 §5.1), or the first RTCP packet's sender (§6.4.1).
        var sender: UInt32?
        if isRTCP, datagram.count >= 8 {
            sender = UInt32(datagram[4]) << 24 | UInt32(datagram[5]) << 16 | UInt32(datagram[6]) << 8 | UInt32(datagram[7])
        } else if !isRTCP, datagram.count >= 12 {
            sender = UInt32(datagram[8]) << 24 | UInt32(datagram[9]) << 16 | UInt32(datagram[10]) << 8 | UInt32(datagram[11])
        }
        let port = sender.flatMap { owners[$0] }.flatMap { ports[$0] } ?? FixtureWriter.unknownSenderPort
        let whole = time.rounded(.down)
        try pcap.append(payload: datagram, seconds: startSeconds + UInt32(whole), nanoseconds: UInt32(((time - whole) * 1e9).rounded(.down)),
                        sourcePort: port, destinationPort: FixtureWriter.recorderPort)
        if isRTCP { counts.rtcp += 1 } else if sender != nil { counts.rtp += 1 } else { counts.other += 1 }
        counts.bytes += Int64(datagram.count)
        if room.hear(datagram, arrival: time) { try writeManifest() }
    }

    /// Records a room event that happened at `time` (seconds on the source's clock).
    public func write(event: RoomEvent, at time: Double) throws(FixtureError) {
        room.record(event, at: advance(to: time))
        counts.events += 1
        switch event {
        case .join(let participant): appeared(participant)
        case .publish(let id, let track): owners[track.ssrc] = id
        default: break
        }
        try writeManifest()
    }

    /// Writes the last manifest and closes the capture. It fails when the fixture cannot be
    /// replayed: no datagram arrived, or nobody was in the room.
    @discardableResult
    public func finish() throws(FixtureError) -> FixtureManifest {
        pcap.close()
        guard counts.datagrams > 0 else {
            throw FixtureError(.badPcap("no datagram was received, so \(directory) holds no fixture to replay"))
        }
        let (manifest, notes) = try room.manifest()
        self.notes = notes
        try writeManifest(manifest.jsonText)
        return manifest
    }

    /// `time` as the capture's clock has it: finite, never earlier than what was written before.
    private func advance(to time: Double) -> Double {
        if time.isFinite { clock = min(max(clock, time), FixtureWriter.longestCapture) }
        return clock
    }

    private func appeared(_ participant: ParticipantDescription) {
        if ports[participant.id] == nil { ports[participant.id] = UInt16(truncatingIfNeeded: 5000 + 10 * min(ports.count, 6000)) }
        for track in participant.tracks { owners[track.ssrc] = participant.id }
    }

    /// Writes the manifest as it stands, if it has changed and says something yet.
    private func writeManifest() throws(FixtureError) {
        guard let (manifest, notes) = try? room.manifest() else { return }
        self.notes = notes
        try writeManifest(manifest.jsonText)
    }

    private func writeManifest(_ text: String) throws(FixtureError) {
        guard text != lastManifest else { return }
        let path = directory + "/" + Fixture.manifestName
        let temporary = directory + "/." + Fixture.manifestName + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)) else {
            throw FixtureError(.cannotWrite(path: temporary, problem: String(cString: strerror(errno))))
        }
        // rename(2) replaces the old manifest in one step: a reader sees the old one or the new.
        guard rename(temporary, path) == 0 else {
            throw FixtureError(.cannotWrite(path: path, problem: String(cString: strerror(errno))))
        }
        lastManifest = text
    }
}
