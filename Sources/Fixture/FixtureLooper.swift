import RTP

/// Makes a fixture play again and again as one continuous room: pass p shifts every stream's
/// sequence numbers by p × (the stream's packet count), its RTP timestamps and its sender
/// reports' NTP times by p × the pass length, so receivers see one long stream with a short
/// pause between passes rather than a restart. BYE packets are dropped, so nobody leaves.
struct FixtureLooper: Sendable {
    struct Stream: Sendable {
        var sequenceSpan: Int64
        var clockRate: Double
    }

    let streams: [UInt32: Stream]
    /// Seconds between the starts of two passes.
    let passLength: Double

    init(fixture: Fixture, passLength: Double) {
        self.passLength = passLength
        var first: [UInt32: Int64] = [:]
        var last: [UInt32: Int64] = [:]
        var unwrappers: [UInt32: SequenceUnwrapper] = [:]
        let rates = Dictionary(fixture.manifest.tracks.map { ($0.track.ssrc, Double($0.track.clockRate)) }, uniquingKeysWith: { a, _ in a })
        for packet in fixture.packets where !RTPPacket.looksLikeRTCP(packet.payload) && packet.payload.count >= 12 {
            let bytes = packet.payload
            let ssrc = UInt32(bytes[8]) << 24 | UInt32(bytes[9]) << 16 | UInt32(bytes[10]) << 8 | UInt32(bytes[11])
            let sequence = unwrappers[ssrc, default: SequenceUnwrapper()].unwrap(UInt16(bytes[2]) << 8 | UInt16(bytes[3]))
            first[ssrc] = min(first[ssrc] ?? sequence, sequence)
            last[ssrc] = max(last[ssrc] ?? sequence, sequence)
        }
        var streams: [UInt32: Stream] = [:]
        for (ssrc, low) in first {
            streams[ssrc] = Stream(sequenceSpan: (last[ssrc] ?? low) - low + 1, clockRate: rates[ssrc] ?? 90_000)
        }
        self.streams = streams
    }

    /// The datagram as it is sent in pass `pass`, or nil if it is dropped (a BYE).
    func rewrite(_ datagram: [UInt8], pass: Int) -> [UInt8]? {
        guard pass > 0 else { return datagram }
        if RTPPacket.looksLikeRTCP(datagram) {
            guard let packets = try? RTCPPacket.parseCompound(datagram) else { return datagram }
            var rewritten: [RTCPPacket] = []
            for packet in packets {
                switch packet {
                case .senderReport(var report):
                    let shift = timestampShift(report.ssrc, pass: pass)
                    report.rtpTimestamp = report.rtpTimestamp &+ UInt32(truncatingIfNeeded: shift)
                    report.ntpTimestamp = NTPTimestamp(ntpSeconds: report.ntpTimestamp.ntpSeconds + Double(pass) * passLength)
                    rewritten.append(.senderReport(report))
                case .goodbye:
                    continue
                default:
                    rewritten.append(packet)
                }
            }
            guard !rewritten.isEmpty else { return nil }
            return (try? RTCPPacket.marshalCompound(rewritten)) ?? datagram
        }
        guard datagram.count >= 12 else { return datagram }
        var bytes = datagram
        let ssrc = UInt32(bytes[8]) << 24 | UInt32(bytes[9]) << 16 | UInt32(bytes[10]) << 8 | UInt32(bytes[11])
        guard let stream = streams[ssrc] else { return datagram }
        let sequence = (UInt16(bytes[2]) << 8 | UInt16(bytes[3])) &+ UInt16(truncatingIfNeeded: Int64(pass) * stream.sequenceSpan)
        bytes[2] = UInt8(sequence >> 8)
        bytes[3] = UInt8(sequence & 0xFF)
        let timestamp = (UInt32(bytes[4]) << 24 | UInt32(bytes[5]) << 16 | UInt32(bytes[6]) << 8 | UInt32(bytes[7]))
            &+ UInt32(truncatingIfNeeded: timestampShift(ssrc, pass: pass))
        bytes[4] = UInt8(timestamp >> 24)
        bytes[5] = UInt8((timestamp >> 16) & 0xFF)
        bytes[6] = UInt8((timestamp >> 8) & 0xFF)
        bytes[7] = UInt8(timestamp & 0xFF)
        return bytes
    }

    private func timestampShift(_ ssrc: UInt32, pass: Int) -> Int64 {
        guard let stream = streams[ssrc] else { return 0 }
        return Int64((Double(pass) * passLength * stream.clockRate).rounded())
    }
}
