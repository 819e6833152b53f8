import Foundation
import RTP

/// A recorded room: the RTP and RTCP its participants sent (`capture.pcap`) and who they are
/// (`manifest.json`). A fixture replays through the same pipeline as a live room.
public struct Fixture: Sendable {
    /// One datagram of the capture, with its arrival time on the fixture's clock.
    public struct Packet: Sendable, Equatable {
        /// Seconds since the first datagram of the capture.
        public var arrival: Double
        public var payload: [UInt8]

        public init(arrival: Double, payload: [UInt8]) {
            self.arrival = arrival
            self.payload = payload
        }
    }

    public let directory: String
    public let manifest: FixtureManifest
    /// Every UDP datagram in capture order.
    public let packets: [Packet]
    /// Unix time of the first datagram.
    public let startTime: Double
    /// Problems that did not stop loading: a truncated capture, datagrams from unknown SSRCs.
    public let warnings: [String]

    /// The manifest's name inside a fixture directory.
    public static let manifestName = "manifest.json"
    /// The capture's name inside a fixture directory.
    public static let captureName = "capture.pcap"

    /// Whether `directory` looks like a fixture (it has a manifest).
    public static func exists(at directory: String) -> Bool {
        FileManager.default.fileExists(atPath: directory + "/" + manifestName)
    }

    /// Loads and checks a fixture directory.
    public init(directory: String) throws(FixtureError) {
        let manifestPath = directory + "/" + Fixture.manifestName
        let capturePath = directory + "/" + Fixture.captureName
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw FixtureError(.missingFile(directory))
        }
        guard let manifestData = FileManager.default.contents(atPath: manifestPath) else {
            throw FixtureError(.missingFile(manifestPath))
        }
        guard let captureData = FileManager.default.contents(atPath: capturePath) else {
            throw FixtureError(.missingFile(capturePath))
        }
        try self.init(directory: directory, manifest: try FixtureManifest(json: Array(manifestData)),
                      pcap: try PcapReader(bytes: Array(captureData)))
    }

    /// Builds a fixture from parsed parts, checking that every manifest SSRC appears.
    public init(directory: String, manifest: FixtureManifest, pcap: PcapReader) throws(FixtureError) {
        self.directory = directory
        self.manifest = manifest
        var warnings: [String] = []
        if let truncation = pcap.truncation {
            warnings.append("capture.pcap is truncated: \(truncation); using the \(pcap.datagrams.count) whole datagrams before it")
        }
        guard let first = pcap.datagrams.first else {
            throw FixtureError(.badPcap("it holds no UDP datagrams"))
        }
        startTime = first.time
        packets = pcap.datagrams.map { Packet(arrival: max(0, $0.time - first.time), payload: $0.payload) }

        // Which SSRCs does the capture carry? RTP by its header, RTCP by the sender SSRC of each
        // packet in the compound (RFC 5761 §4 tells them apart).
        var seen = Set<UInt32>()
        var unknown: [UInt32: Int] = [:]
        let known = Set(manifest.tracks.map(\.track.ssrc))
        for packet in packets where !RTPPacket.looksLikeRTCP(packet.payload) && packet.payload.count >= 12 {
            let ssrc = UInt32(packet.payload[8]) << 24 | UInt32(packet.payload[9]) << 16 | UInt32(packet.payload[10]) << 8
                | UInt32(packet.payload[11])
            if known.contains(ssrc) { seen.insert(ssrc) } else { unknown[ssrc, default: 0] += 1 }
        }
        for (participantID, track) in manifest.tracks where !seen.contains(track.ssrc) {
            throw FixtureError(.silentTrack(
                "no RTP packet has ssrc \(track.ssrc) (participant \"\(participantID)\", \(track.kind.rawValue) \(track.codec.rawValue))"))
        }
        for (ssrc, count) in unknown.sorted(by: { $0.key < $1.key }) {
            warnings.append("\(count) RTP packets have ssrc \(ssrc), which the manifest does not list; they are ignored")
        }
        if pcap.skippedRecords > 0 {
            warnings.append("\(pcap.skippedRecords) records are not whole UDP datagrams and were skipped")
        }
        self.warnings = warnings
    }

    /// The same fixture with other datagrams (tests use it to degrade a capture).
    public func with(packets: [Packet]) -> Fixture {
        Fixture(directory: directory, manifest: manifest, packets: packets, startTime: startTime, warnings: warnings)
    }

    private init(directory: String, manifest: FixtureManifest, packets: [Packet], startTime: Double, warnings: [String]) {
        self.directory = directory
        self.manifest = manifest
        self.packets = packets
        self.startTime = startTime
        self.warnings = warnings
    }

    /// Seconds from the first datagram to the last.
    public var captureDuration: Double { packets.last?.arrival ?? 0 }
}
