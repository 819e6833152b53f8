import RTP

/// The media path: a publisher's packet in, one rewritten copy per consumer out.
extension Router {
    /// What every packet of a publisher connection tells its congestion feedback, whether or not
    /// it belongs to a producer (probes, unknown payload types): its transport-wide number and
    /// arrival for TWCC, its size and abs-send-time for the REMB estimate.
    @inline(__always)
    func recordTransport(_ packet: UnsafeBufferPointer<UInt8>, view: RTPHeaderView, elements: [ExtensionElement],
                         publisher: PublisherPeer, now: Double)
    {
        if let element = elements.find(publisher.transportCCID), element.length >= 2 {
            publisher.transportFeedback.record(UInt16(packet[element.start]) << 8 | UInt16(packet[element.start + 1]), at: now)
        }
        var sendTime: UInt32?
        if let element = elements.find(publisher.absSendTimeID), element.length == 3 {
            sendTime = UInt32(packet[element.start]) << 16 | UInt32(packet[element.start + 1]) << 8 | UInt32(packet[element.start + 2])
        }
        publisher.estimator.packet(size: packet.count, arrival: now, absSendTime: sendTime)
        publisher.lastMediaSSRC = view.ssrc
    }

    /// One parsed packet of `producer`: RTX unwrapping or media handling.
    @inline(__always)
    func receive(_ packet: UnsafeBufferPointer<UInt8>, view: RTPHeaderView, elements: [ExtensionElement], producer: Producer,
                 now: Double, output: inout RouterOutput)
    {
        statistics.packetsReceived += 1
        statistics.bytesReceived += UInt64(packet.count)
        if let rtx = producer.parameters.rtxPayloadType, view.payloadType == rtx {
            receiveRetransmission(packet, view: view, elements: elements, producer: producer, now: now, output: &output)
            return
        }
        guard view.payloadType == producer.parameters.payloadType,
              let stream = producer.mediaStream(ssrc: view.ssrc, packet: packet, elements: elements)
        else {
            statistics.packetsDropped += 1
            return
        }
        receiveMedia(packet, view: view, elements: elements, producer: producer, stream: stream, recovered: false, now: now,
                     output: &output)
    }

    /// An RTX packet (RFC 4588 §4): the original is rebuilt (original sequence number from the
    /// first two payload bytes, media SSRC and payload type) and handled as a late media packet.
    /// Padding-only RTX packets are bandwidth probes and go no further.
    private func receiveRetransmission(_ packet: UnsafeBufferPointer<UInt8>, view: RTPHeaderView, elements: [ExtensionElement],
                                       producer: Producer, now: Double, output: inout RouterOutput)
    {
        // Placed (and its SSRC learned) even when it is a padding-only probe, so later probes
        // without MID still demultiplex.
        guard let stream = producer.repairedStream(ssrc: view.ssrc, packet: packet, elements: elements) else {
            statistics.packetsDropped += 1
            return
        }
        guard view.payloadLength >= 2, let ssrc = stream.ssrc else { return }
        var buffer: [UInt8] = []
        swap(&buffer, &recoveryBuffer)
        defer { swap(&buffer, &recoveryBuffer) }
        buffer.removeAll(keepingCapacity: true)
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: packet[0..<view.payloadStart]))
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: packet[(view.payloadStart + 2)..<view.payloadEnd]))
        let original = UInt16(packet[view.payloadStart]) << 8 | UInt16(packet[view.payloadStart + 1])
        buffer[0] &= ~0x20
        buffer[1] = buffer[1] & 0x80 | producer.parameters.payloadType
        buffer[2] = UInt8(original >> 8)
        buffer[3] = UInt8(truncatingIfNeeded: original)
        buffer[8] = UInt8(truncatingIfNeeded: ssrc >> 24)
        buffer[9] = UInt8(truncatingIfNeeded: ssrc >> 16)
        buffer[10] = UInt8(truncatingIfNeeded: ssrc >> 8)
        buffer[11] = UInt8(truncatingIfNeeded: ssrc)
        buffer.withUnsafeBufferPointer { rebuilt in
            guard let rebuiltView = RTPHeaderView(rebuilt) else { return }
            // The header is unchanged in length, so the extension elements sit where they did.
            receiveMedia(rebuilt, view: rebuiltView, elements: elements, producer: producer, stream: stream, recovered: true,
                         now: now, output: &output)
        }
    }

    /// A media packet of one stream: sequence bookkeeping (duplicates, restarts, gaps to NACK),
    /// keyframes, the cache, audio levels, then every consumer.
    private func receiveMedia(_ packet: UnsafeBufferPointer<UInt8>, view: RTPHeaderView, elements: [ExtensionElement],
                              producer: Producer, stream: ProducerStream, recovered: Bool, now: Double,
                              output: inout RouterOutput)
    {
        var restarted = false
        let accepted = recovered ? stream.acceptRecovered(view.sequenceNumber) : stream.accept(view.sequenceNumber, restarted: &restarted)
        guard let sequence = accepted else {
            statistics.packetsDropped += 1
            return
        }
        stream.lastPacketTime = now
        stream.bitrate.add(packet.count, now: now)
        stream.observe(sequence: sequence, timestamp: view.timestamp, arrival: now, recovered: recovered)
        let isVideo = producer.kind.isVideo
        switch stream.nack.received(sequence, now: now) {
        case .gap where producer.parameters.feedback.contains(.nack):
            schedule(now + configuration.nackDelay)
        case .jump where isVideo:
            wantKeyframe(stream, fir: false, now: now)
        default:
            break
        }
        let padding = view.payloadLength == 0
        let keyframe = !padding && KeyframeDetector.isKeyframeStart(codec: producer.parameters.codec, packet: packet,
                                                                    payloadStart: view.payloadStart, payloadEnd: view.payloadEnd)
        if isVideo {
            if keyframe {
                stream.lastKeyframe = now
                stream.keyframeWanted = false
            }
            if !padding { stream.cache?.store(packet, sequence: sequence, arrival: now) }
        } else if !recovered, let element = elements.find(producer.extensions.audioLevel), element.length >= 1 {
            // RFC 6464 §3: V bit, then the level in −dBov.
            producer.levelSum -= Double(packet[element.start] & 0x7F)
            producer.levelCount += 1
        }
        guard !producer.consumers.isEmpty else { return }
        let vp8 = producer.parameters.codec == .vp8 && !padding ? VP8Descriptor(packet, from: view.payloadStart, to: view.payloadEnd) : nil
        let sendTime = Self.absSendTime(now)
        for consumer in producer.consumers {
            forward(packet, view: view, elements: elements, sequence: sequence, keyframe: keyframe, padding: padding, vp8: vp8,
                    sendTime: sendTime, stream: stream, to: consumer, now: now, output: &output)
        }
    }

    /// abs-send-time: seconds in 6.18 fixed point, 24 bits.
    static func absSendTime(_ now: Double) -> UInt32 {
        guard now.isFinite, now >= 0 else { return 0 }
        return UInt32(truncatingIfNeeded: Int64((now * 262_144).rounded(.down))) & 0xFF_FFFF
    }

    /// One packet to one consumer: forwarded if the consumer is on this stream; the start of a
    /// new source if the consumer waits for this stream and it is a keyframe; else dropped (and
    /// a keyframe asked for, if the consumer waits for one).
    @inline(__always)
    private func forward(_ packet: UnsafeBufferPointer<UInt8>, view: RTPHeaderView, elements: [ExtensionElement], sequence: Int64,
                         keyframe: Bool, padding: Bool, vp8: VP8Descriptor?, sendTime: UInt32, stream: ProducerStream,
                         to consumer: Consumer, now: Double, output: inout RouterOutput)
    {
        guard !consumer.paused else { return }
        if consumer.currentLayer == stream.layer, consumer.generation == stream.generation, consumer.rewriter.isSynced {
            if padding, consumer.rewriter.drop(input: sequence) { return }
            guard let number = consumer.rewriter.map(input: sequence) else { return }
            emit(packet, view: view, elements: elements, output: number, input: sequence, vp8: vp8, sendTime: sendTime,
                 stream: stream, consumer: consumer, now: now, into: &output)
            return
        }
        guard stream.layer == consumer.targetLayer, !padding else { return }
        guard keyframe else {
            if !stream.keyframeWanted { wantKeyframe(stream, fir: false, now: now) }
            sendKeyframeRequest(stream, of: consumer.producer, now: now, output: &output)
            return
        }
        startSource(stream, for: consumer, view: view, packet: packet, vp8: vp8, sequence: sequence, now: now)
        guard let number = consumer.rewriter.map(input: sequence) else { return }
        emit(packet, view: view, elements: elements, output: number, input: sequence, vp8: vp8, sendTime: sendTime, stream: stream,
             consumer: consumer, now: now, into: &output)
        catchUp(consumer, stream: stream, after: sequence, sendTime: sendTime, now: now, output: &output)
        sendSenderReport(of: stream, to: consumer, now: now, output: &output)
    }

    /// Writes one packet for a consumer and records it for NACKs.
    @inline(__always)
    private func emit(_ packet: UnsafeBufferPointer<UInt8>, view: RTPHeaderView, elements: [ExtensionElement], output number: Int64,
                      input: Int64, vp8: VP8Descriptor?, sendTime: UInt32, stream: ProducerStream, consumer: Consumer, now: Double,
                      into output: inout RouterOutput)
    {
        let newest = number == consumer.rewriter.lastOutput
        let before = output.mark
        let payload = consumer.write(packet, view: view, elements: elements, output: number, offsets: consumer.offsets, vp8: vp8,
                                     absSendTime: sendTime, asRTX: false, isNewest: newest, into: &output)
        consumer.sendLog?.record(output: number, layer: stream.layer, generation: stream.generation, input: input,
                                 rewrite: consumer.offsets)
        consumer.packetsSent += 1
        consumer.octetsSent += UInt64(payload)
        if newest {
            consumer.lastTimestamp = view.timestamp &+ consumer.offsets.timestamp
            consumer.lastSendTime = now
        }
        statistics.packetsSent += 1
        statistics.bytesSent += UInt64(output.mark - before)
    }

    /// Points a consumer at a new source (first keyframe, layer switch, producer restart), so its
    /// output continues: the next sequence number, a timestamp a frame on (or exactly aligned by
    /// both layers' sender reports, which share the publisher's NTP clock), and the next VP8
    /// picture ID and TL0PICIDX.
    private func startSource(_ stream: ProducerStream, for consumer: Consumer, view: RTPHeaderView, packet: UnsafeBufferPointer<UInt8>,
                             vp8: VP8Descriptor?, sequence: Int64, now: Double)
    {
        let producer = consumer.producer
        var offsets = RewriteOffsets()
        if let lastSend = consumer.lastSendTime {
            let rate = Double(producer.parameters.clockRate)
            let previous = consumer.currentLayer.map { producer.streams[$0] }
            let frame = previous?.frameDuration ?? stream.frameDuration
            let elapsed = UInt32(min(Double(UInt32.max / 2), max(0, (now - lastSend) * rate)))
            var target = consumer.lastTimestamp &+ max(elapsed, max(1, frame))
            if let previous, previous !== stream, let old = previous.lastSenderReport, let new = stream.lastSenderReport {
                let captured = new.ntp.ntpSeconds + Double(Int32(bitPattern: view.timestamp &- new.rtp)) / rate
                let onOldClock = old.rtp &+ UInt32(truncatingIfNeeded: Int64(((captured - old.ntp.ntpSeconds) * rate).rounded()))
                let aligned = onOldClock &+ consumer.offsets.timestamp
                let ahead = Int64(Int32(bitPattern: aligned &- consumer.lastTimestamp))
                if ahead > 0, ahead < Int64(rate * 5) { target = aligned }
            }
            offsets.timestamp = target &- view.timestamp
            if let vp8, let position = vp8.pictureIDOffset, let last = consumer.lastPictureID {
                let incoming = vp8.pictureIDIs15Bit ? UInt16(packet[position] & 0x7F) << 8 | UInt16(packet[position + 1])
                    : UInt16(packet[position] & 0x7F)
                offsets.pictureID = (last &+ 1) &- incoming
            }
            if let vp8, let position = vp8.tl0PictureIndexOffset, let last = consumer.lastTL0PictureIndex {
                offsets.tl0PictureIndex = (last &+ 1) &- packet[position]
            }
        }
        consumer.offsets = offsets
        consumer.rewriter.sync(input: sequence)
        consumer.currentLayer = stream.layer
        consumer.generation = stream.generation
    }

    /// After a start point, the packets of the same stream that arrived before it (reordered)
    /// are in the cache; send them on, so the keyframe is whole without waiting for NACKs.
    private func catchUp(_ consumer: Consumer, stream: ProducerStream, after sequence: Int64, sendTime: UInt32, now: Double,
                         output: inout RouterOutput)
    {
        guard let highest = stream.highestSequence, highest > sequence, stream.cache != nil else { return }
        let codec = consumer.producer.parameters.codec
        var elements: [ExtensionElement] = []
        swap(&elements, &replayElements)
        defer { swap(&elements, &replayElements) }
        for input in (sequence + 1)...min(highest, sequence + 64) {
            _ = stream.cache?.withPacket(input, now: now, maxAge: configuration.packetCacheMaxAge) { packet in
                guard let view = RTPHeaderView(packet), view.elements(in: packet, into: &elements),
                      let number = consumer.rewriter.map(input: input)
                else { return }
                let vp8 = codec == .vp8 ? VP8Descriptor(packet, from: view.payloadStart, to: view.payloadEnd) : nil
                emit(packet, view: view, elements: elements, output: number, input: input, vp8: vp8, sendTime: sendTime, stream: stream,
                     consumer: consumer, now: now, into: &output)
            }
        }
    }

    // MARK: Keyframe requests

    /// Notes that a stream's subscribers need a keyframe; the request goes out now or as soon as
    /// `keyframeRequestInterval` allows.
    func wantKeyframe(_ stream: ProducerStream, fir: Bool, now: Double) {
        if !stream.keyframeWanted { stream.keyframeWantedSince = now }
        stream.keyframeWanted = true
        if fir { stream.keyframeWantsFIR = true }
        schedule(max(now, stream.lastKeyframeRequest + configuration.keyframeRequestInterval))
    }

    /// Sends a PLI (RFC 4585 §6.3.1), or a FIR (RFC 5104 §4.3.1) when one was asked for and the
    /// publisher takes FIR, or when it takes only FIR, if one is wanted and allowed by now.
    func sendKeyframeRequest(_ stream: ProducerStream, of producer: Producer, now: Double, output: inout RouterOutput) {
        guard stream.keyframeWanted, now - stream.lastKeyframeRequest >= configuration.keyframeRequestInterval,
              let ssrc = stream.ssrc
        else { return }
        let feedback = producer.parameters.feedback
        guard feedback.contains(.pli) || feedback.contains(.fir) else {
            stream.keyframeWanted = false
            return
        }
        let useFIR = feedback.contains(.fir) && (stream.keyframeWantsFIR || !feedback.contains(.pli))
        let request: RTCPPacket
        if useFIR {
            stream.firSequence &+= 1
            request = .fullIntraRequest(RTCPFullIntraRequest(senderSSRC: rtcpSSRC, entries: [.init(ssrc: ssrc, sequenceNumber: stream.firSequence)]))
        } else {
            request = .pictureLossIndication(RTCPPictureLossIndication(senderSSRC: rtcpSSRC, mediaSSRC: ssrc))
        }
        sendToPublisher(producer.parameters.peer, [request], output: &output)
        stream.lastKeyframeRequest = now
        stream.keyframeWantsFIR = false
        statistics.keyframeRequestsSent += 1
        output.record(.keyframeRequested(producer.id, layer: stream.layer))
        schedule(now + configuration.keyframeRequestInterval)
    }

    /// RTCP feedback to a publisher: behind an empty receiver report unless reduced-size RTCP
    /// was negotiated (RFC 5506 §3; RFC 3550 §6.1 wants compounds to start with SR or RR).
    func sendToPublisher(_ peer: PeerID, _ packets: [RTCPPacket], output: inout RouterOutput) {
        var compound = packets
        if !(publishers[peer]?.reducedSizeRTCP ?? true) {
            compound.insert(.receiverReport(RTCPReceiverReport(ssrc: rtcpSSRC)), at: 0)
        }
        guard let bytes = try? RTCPPacket.marshalCompound(compound) else { return }
        output.appendRTCP(bytes, peer: peer)
    }
}
