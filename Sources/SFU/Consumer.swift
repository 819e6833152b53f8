import RTP

/// One subscriber's copy of a producer: its outgoing SSRC, payload type and extension IDs, which
/// source stream it forwards and from where, and how it rewrites packets (RFC 3550 §5.1,
/// RFC 8285, RFC 4588 for RTX).
final class Consumer {
    let id: ConsumerID
    let peer: PeerID
    let producer: Producer
    let ssrc: UInt32
    let rtxSSRC: UInt32?
    let payloadType: UInt8
    let rtxPayloadType: UInt8?
    let feedback: FeedbackMechanisms

    /// For each incoming extension ID, the outgoing one; 0 strips it.
    private let copyIDs: [UInt8]
    private let midID: UInt8?
    private let midBytes: [UInt8]
    private let absSendTimeID: UInt8?
    /// Whether the generated elements alone already need the two-byte form.
    private let generatedNeedTwoByte: Bool

    var paused: Bool
    var preferred: PreferredQuality
    var targetLayer: Int
    /// The layer being forwarded, and its stream generation; nil until the first sync.
    var currentLayer: Int?
    var generation = 0
    var rewriter: SequenceRewriter
    var offsets = RewriteOffsets()
    /// The outgoing timestamp of the newest packet, and when it was sent.
    var lastTimestamp: UInt32 = 0
    var lastSendTime: Double?
    var lastPictureID: UInt16?
    var lastTL0PictureIndex: UInt8?
    var sendLog: SendLog?
    var rtxSequence: UInt16
    var packetsSent: UInt64 = 0
    var octetsSent: UInt64 = 0
    /// The middle 32 bits of the NTP time of the last sender reports sent, and when, to turn
    /// the subscriber's LSR/DLSR into a round-trip time (RFC 3550 §6.4.1).
    var reportsSent: [(middle32: UInt32, time: Double)] = []
    var roundTripTime: Double?
    var fractionLost: Double = 0
    /// A higher layer the budget allows, and since when (switching up waits a little).
    var upgradeLayer: Int?
    var upgradeSince = -Double.infinity

    init(id: ConsumerID, peer: PeerID, producer: Producer, options: ConsumerOptions, ssrc: UInt32, rtxSSRC: UInt32?,
         firstSequence: UInt16, firstRTXSequence: UInt16, cacheCapacity: Int)
    {
        self.id = id
        self.peer = peer
        self.producer = producer
        self.ssrc = ssrc
        self.rtxSSRC = rtxSSRC
        payloadType = options.payloadType ?? producer.parameters.payloadType
        rtxPayloadType = rtxSSRC == nil ? nil : options.rtxPayloadType
        feedback = options.feedback
        paused = options.paused
        preferred = options.preferredQuality
        targetLayer = options.preferredQuality.layer(of: producer.streams.count)
        rewriter = SequenceRewriter(firstOutput: firstSequence)
        rtxSequence = firstRTXSequence
        sendLog = producer.kind.isVideo ? SendLog(capacity: cacheCapacity) : nil

        let incoming = producer.extensions
        let outgoing = options.extensions
        var copy = [UInt8](repeating: 0, count: 256)
        if let from = incoming.audioLevel, let to = outgoing.audioLevel { copy[Int(from)] = to }
        for (uri, from) in incoming.others {
            if let to = outgoing.others[uri] { copy[Int(from)] = to }
        }
        copyIDs = copy
        midID = options.mid == nil ? nil : outgoing.mid
        midBytes = Array((options.mid ?? "").utf8.prefix(255))
        absSendTimeID = outgoing.absSendTime
        generatedNeedTwoByte = (midID.map { $0 > 14 } ?? false) || (midID != nil && (midBytes.isEmpty || midBytes.count > 16))
            || (absSendTimeID.map { $0 > 14 } ?? false)
    }

    var isSynced: Bool { currentLayer != nil && rewriter.isSynced }

    /// Writes `packet` as this consumer sends it: outgoing SSRC, payload type, sequence number
    /// `output` (or the next RTX number, with the original number first in the payload, when
    /// `asRTX`), timestamp and VP8 picture IDs moved by `offsets`, extensions remapped, padding
    /// removed. `isNewest` marks the newest packet, whose picture IDs the next switch continues
    /// from. Returns the payload bytes written.
    @inline(__always)
    func write(_ packet: UnsafeBufferPointer<UInt8>, view: RTPHeaderView, elements: [ExtensionElement], output: Int64,
               offsets: RewriteOffsets, vp8: VP8Descriptor?, absSendTime: UInt32, asRTX: Bool, isNewest: Bool,
               into out: inout RouterOutput) -> Int
    {
        let start = out.mark
        let rtx = asRTX && rtxSSRC != nil
        let csrcBytes = view.csrcEnd - 12
        let first: UInt8 = 0x90 | UInt8(csrcBytes / 4)
        out.append(first)
        out.append((view.marker ? 0x80 : 0) | (rtx ? rtxPayloadType ?? payloadType : payloadType))
        if rtx {
            out.append16(rtxSequence)
            rtxSequence &+= 1
        } else {
            out.append16(UInt16(truncatingIfNeeded: output))
        }
        out.append32(view.timestamp &+ offsets.timestamp)
        out.append32(rtx ? rtxSSRC ?? ssrc : ssrc)
        if csrcBytes > 0 { out.append(contentsOf: UnsafeBufferPointer(rebasing: packet[12..<view.csrcEnd])) }
        if !writeExtensions(packet, elements: elements, absSendTime: absSendTime, into: &out) {
            out.set(start, first & ~0x10)
        }
        if rtx { out.append16(UInt16(truncatingIfNeeded: output)) }
        let payloadOut = out.mark
        out.append(contentsOf: UnsafeBufferPointer(rebasing: packet[view.payloadStart..<view.payloadEnd]))
        if let vp8 {
            if let position = vp8.pictureIDOffset {
                let at = payloadOut + position - view.payloadStart
                if vp8.pictureIDIs15Bit {
                    let value = ((UInt16(packet[position] & 0x7F) << 8 | UInt16(packet[position + 1])) &+ offsets.pictureID) & 0x7FFF
                    if offsets.pictureID != 0 {
                        out.set(at, 0x80 | UInt8(value >> 8))
                        out.set(at + 1, UInt8(truncatingIfNeeded: value))
                    }
                    if isNewest { lastPictureID = value }
                } else {
                    let value = (UInt16(packet[position] & 0x7F) &+ offsets.pictureID) & 0x7F
                    if offsets.pictureID != 0 { out.set(at, UInt8(value)) }
                    if isNewest { lastPictureID = value }
                }
            }
            if let position = vp8.tl0PictureIndexOffset {
                let value = packet[position] &+ offsets.tl0PictureIndex
                if offsets.tl0PictureIndex != 0 { out.set(payloadOut + position - view.payloadStart, value) }
                if isNewest { lastTL0PictureIndex = value }
            }
        }
        out.commit(.rtp, peer: peer, from: start)
        return view.payloadLength
    }

    /// The extension block (RFC 8285): mid and abs-send-time generated, the rest copied under the
    /// subscriber's IDs, one-byte form unless an ID or length needs two bytes. False when
    /// nothing was written (the caller clears the X bit).
    @inline(__always)
    private func writeExtensions(_ packet: UnsafeBufferPointer<UInt8>, elements: [ExtensionElement], absSendTime: UInt32,
                                 into out: inout RouterOutput) -> Bool
    {
        var twoByte = generatedNeedTwoByte
        var copies = false
        for element in elements {
            let to = copyIDs[Int(element.id)]
            guard to != 0 else { continue }
            copies = true
            if to > 14 || element.length == 0 || element.length > 16 { twoByte = true }
        }
        let hasMid = midID != nil && !midBytes.isEmpty
        guard copies || hasMid || absSendTimeID != nil else { return false }
        let blockStart = out.mark
        out.append16(twoByte ? 0x1000 : 0xBEDE)
        out.append16(0)
        let dataStart = out.mark
        if let midID, hasMid {
            writeHeader(id: midID, length: midBytes.count, twoByte: twoByte, into: &out)
            out.append(contentsOf: midBytes)
        }
        if let absSendTimeID {
            writeHeader(id: absSendTimeID, length: 3, twoByte: twoByte, into: &out)
            out.append(UInt8(truncatingIfNeeded: absSendTime >> 16))
            out.append(UInt8(truncatingIfNeeded: absSendTime >> 8))
            out.append(UInt8(truncatingIfNeeded: absSendTime))
        }
        for element in elements {
            let to = copyIDs[Int(element.id)]
            guard to != 0 else { continue }
            writeHeader(id: to, length: element.length, twoByte: twoByte, into: &out)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: packet[element.start..<element.start + element.length]))
        }
        while (out.mark - dataStart) % 4 != 0 { out.append(0) }
        let words = (out.mark - dataStart) / 4
        out.set(blockStart + 2, UInt8(truncatingIfNeeded: words >> 8))
        out.set(blockStart + 3, UInt8(truncatingIfNeeded: words))
        return true
    }

    @inline(__always)
    private func writeHeader(id: UInt8, length: Int, twoByte: Bool, into out: inout RouterOutput) {
        if twoByte {
            out.append(id)
            out.append(UInt8(length))
        } else {
            out.append(id << 4 | UInt8(length - 1))
        }
    }

    /// Remembers a sender report sent, for the round-trip time.
    func noteReportSent(_ ntp: NTPTimestamp, at now: Double) {
        if reportsSent.count >= 8 { reportsSent.removeFirst() }
        reportsSent.append((ntp.middle32, now))
    }

    /// A reception report from the subscriber about this consumer's SSRC.
    func observe(_ report: RTCPReceptionReport, now: Double) {
        fractionLost = Double(report.fractionLost) / 256
        guard report.lastSenderReport != 0,
              let sent = reportsSent.last(where: { $0.middle32 == report.lastSenderReport })
        else { return }
        let rtt = now - sent.time - Double(report.delaySinceLastSenderReport) / 65_536
        if rtt >= 0 { roundTripTime = rtt }
    }

    var state: ConsumerState {
        ConsumerState(paused: paused, currentLayer: currentLayer, targetLayer: targetLayer,
                      waitingForKeyframe: !paused && (currentLayer != targetLayer || !rewriter.isSynced),
                      packetsSent: packetsSent, octetsSent: octetsSent, estimatedBitrate: nil, roundTripTime: roundTripTime,
                      fractionLost: fractionLost)
    }
}
