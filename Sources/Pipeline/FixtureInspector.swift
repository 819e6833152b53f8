import Decode
import Fixture
import Foundation
import Ingest

/// Replays a fixture through ingest and the decoders, and reports what each track held:
/// `revue fixture inspect`.
public enum FixtureInspector {
    /// Replays and decodes every track, as fast as possible.
    public static func inspect(_ fixture: Fixture) -> FixtureReport {
        var session = IngestSession(tracks: fixture.trackInfos)
        var video: [UInt32: VideoTrackDecoder] = [:]
        var audio: [UInt32: AudioTrackDecoder] = [:]
        var setupErrors: [String] = []
        for track in fixture.trackInfos {
            do {
                if track.kind.isVideo {
                    video[track.ssrc] = try VideoTrackDecoder(codec: track.codec)
                } else {
                    audio[track.ssrc] = try AudioTrackDecoder(channels: track.channels)
                }
            } catch {
                setupErrors.append("ssrc \(track.ssrc): \(error)")
            }
        }
        var nacks: [UInt32: Int] = [:]
        func handle(_ events: [IngestEvent]) {
            for event in events {
                switch event {
                case .frame(let frame):
                    if let decoder = video[frame.track.ssrc] {
                        _ = decoder.decode(frame)
                    } else if let decoder = audio[frame.track.ssrc] {
                        _ = decoder.decode(frame)
                    }
                case .sendNack(let ssrc, let sequences):
                    nacks[ssrc, default: 0] += sequences.count
                case .requestKeyframe, .participantJoined, .participantLeft:
                    break
                }
            }
        }
        for packet in fixture.packets {
            handle(session.receive(packet.payload, arrival: packet.arrival))
            handle(session.poll(at: packet.arrival))
        }
        handle(session.finish())

        var tracks: [FixtureReport.Track] = []
        for (participantID, track) in fixture.manifest.tracks {
            guard let statistics = session.statistics(ssrc: track.ssrc) else { continue }
            var report = FixtureReport.Track(
                participantID: participantID, participantName: fixture.manifest.name(of: participantID), kind: track.kind.rawValue,
                codec: track.codec.rawValue, ssrc: track.ssrc, statistics: statistics)
            if let decoder = video[track.ssrc] {
                let decoded = decoder.statistics
                report.framesDecoded = decoded.framesDecoded
                report.decodeErrors = decoded.decodeErrors
                report.resolutions = decoded.resolutions
                report.firstMediaTime = decoded.firstMediaTime
                report.lastMediaTime = decoded.lastMediaTime
            } else if let decoder = audio[track.ssrc] {
                let decoded = decoder.statistics
                report.framesDecoded = decoded.packetsDecoded
                report.decodeErrors = decoded.decodeErrors
                report.samplesConcealed = decoded.samplesConcealed
                report.firstMediaTime = decoded.firstMediaTime
                report.lastMediaTime = decoded.lastMediaTime
            }
            tracks.append(report)
        }
        var participants: [FixtureReport.Participant] = []
        for id in fixture.manifest.everyone {
            let delays = fixture.manifest.tracks.filter { $0.participantID == id }
                .map { (kind: $0.track.kind, delay: session.statistics(ssrc: $0.track.ssrc)?.leastDelay) }
            let videoDelay = delays.first { $0.kind == .video }?.delay
            let audioDelay = delays.first { $0.kind == .audio }?.delay
            var offset: Double?
            if let videoDelay, let audioDelay { offset = (videoDelay - audioDelay) * 1000 }
            participants.append(FixtureReport.Participant(id: id, name: fixture.manifest.name(of: id),
                                                          audioVideoOffsetMilliseconds: offset))
        }
        return FixtureReport(
            directory: fixture.directory, datagrams: fixture.packets.count, captureDuration: fixture.captureDuration,
            warnings: fixture.warnings + setupErrors, tracks: tracks, participants: participants,
            unknownSSRCPackets: session.unknownSSRCPackets, malformedRTP: session.malformedRTP,
            malformedRTCP: session.malformedRTCP)
    }
}

/// What `revue fixture inspect` prints.
public struct FixtureReport: Sendable, Codable, Equatable {
    public struct Track: Sendable, Codable, Equatable {
        public var participantID: String
        public var participantName: String
        public var kind: String
        public var codec: String
        public var ssrc: UInt32
        public var packets: Int
        public var packetsPerSecond: Double
        public var lost: Int
        public var reordered: Int
        public var duplicates: Int
        public var late: Int
        public var malformed: Int
        public var nacked: Int
        public var framesAssembled: Int
        public var framesIncomplete: Int
        public var framesSkippedAwaitingKeyframe: Int
        public var framesDecoded = 0
        public var keyframes: Int
        public var keyframeRequests: Int
        public var decodeErrors = 0
        public var samplesConcealed = 0
        public var firstMediaTime: Double?
        public var lastMediaTime: Double?
        public var resolutions: [String] = []
        public var senderReports: Int

        init(participantID: String, participantName: String, kind: String, codec: String, ssrc: UInt32,
             statistics: TrackStatistics)
        {
            self.participantID = participantID
            self.participantName = participantName
            self.kind = kind
            self.codec = codec
            self.ssrc = ssrc
            let buffer = statistics.buffer
            packets = buffer.packetsReceived
            if let first = statistics.firstArrival, let last = statistics.lastArrival, last > first {
                packetsPerSecond = Double(buffer.packetsReceived - 1) / (last - first)
            } else {
                packetsPerSecond = 0
            }
            lost = buffer.packetsLost
            reordered = buffer.packetsReordered
            duplicates = buffer.packetsDuplicated
            late = buffer.packetsLate
            malformed = statistics.malformedPackets
            nacked = buffer.packetsNacked
            framesAssembled = buffer.framesAssembled
            framesIncomplete = buffer.framesIncomplete
            framesSkippedAwaitingKeyframe = buffer.framesSkippedAwaitingKeyframe
            keyframes = buffer.keyframes
            keyframeRequests = buffer.keyframeRequests
            senderReports = statistics.senderReports
        }
    }

    public struct Participant: Sendable, Codable, Equatable {
        public var id: String
        public var name: String
        /// How much later video arrives than audio of the same capture instant, from the least
        /// delays measured against the sender's clock; nil without sender reports on both.
        public var audioVideoOffsetMilliseconds: Double?
    }

    public var directory: String
    public var datagrams: Int
    public var captureDuration: Double
    public var warnings: [String]
    public var tracks: [Track]
    public var participants: [Participant]
    public var unknownSSRCPackets: Int
    public var malformedRTP: Int
    public var malformedRTCP: Int

    /// The report as lines for a person.
    public var text: String {
        var lines = ["fixture \(directory): \(datagrams) datagrams over \(String(format: "%.3f", captureDuration)) s"]
        for warning in warnings { lines.append("  warning: \(warning)") }
        for participant in participants {
            lines.append("")
            lines.append("participant \(participant.id) (\(participant.name))")
            for track in tracks where track.participantID == participant.id {
                lines.append("  \(track.kind) ssrc \(track.ssrc) \(track.codec)")
                lines.append("    packets \(track.packets) (\(String(format: "%.1f", track.packetsPerSecond))/s), lost \(track.lost), "
                    + "reordered \(track.reordered), duplicates \(track.duplicates), late \(track.late), malformed \(track.malformed)")
                if track.kind == "audio" {
                    lines.append("    packets decoded \(track.framesDecoded), decode errors \(track.decodeErrors), "
                        + "samples concealed \(track.samplesConcealed)")
                } else {
                    lines.append("    frames assembled \(track.framesAssembled), decoded \(track.framesDecoded), keyframes \(track.keyframes), "
                        + "decode errors \(track.decodeErrors), incomplete \(track.framesIncomplete), "
                        + "skipped awaiting keyframe \(track.framesSkippedAwaitingKeyframe)")
                }
                let first = track.firstMediaTime.map { String(format: "%.3f", $0) } ?? "-"
                let last = track.lastMediaTime.map { String(format: "%.3f", $0) } ?? "-"
                var timeLine = "    media time \(first) → \(last) s"
                if !track.resolutions.isEmpty { timeLine += ", resolution \(track.resolutions.joined(separator: " → "))" }
                lines.append(timeLine)
                lines.append("    sender reports \(track.senderReports), NACKed \(track.nacked), keyframe requests \(track.keyframeRequests)")
            }
            if let offset = participant.audioVideoOffsetMilliseconds {
                lines.append("  audio/video offset: video arrives \(String(format: "%+.1f", offset)) ms relative to audio")
            } else {
                lines.append("  audio/video offset: not measured (needs sender reports on an audio and a video track)")
            }
        }
        if unknownSSRCPackets + malformedRTP + malformedRTCP > 0 {
            lines.append("")
            lines.append("unknown ssrc \(unknownSSRCPackets), malformed RTP \(malformedRTP), malformed RTCP \(malformedRTCP)")
        }
        return lines.joined(separator: "\n")
    }
}
