import RTP

/// RTCP in (subscribers' feedback, publishers' reports) and out (reports, NACKs, REMB,
/// transport-wide feedback), and the periodic work of `poll`.
extension Router {
    /// RTCP from a peer; what to send is appended to `output`.
    public func receiveRTCP(_ packet: [UInt8], fromPeer peer: PeerID, now: Double, into output: inout RouterOutput) {
        guard let packets = try? RTCPPacket.parseCompound(packet) else {
            statistics.rtcpDropped += 1
            return
        }
        for packet in packets {
            switch packet {
            case .senderReport(let report):
                receiveSenderReport(report, from: peer, now: now, output: &output)
                receiveReceptionReports(report.reports, from: peer, now: now)
            case .receiverReport(let report):
                receiveReceptionReports(report.reports, from: peer, now: now)
            case .goodbye(let goodbye):
                for ssrc in goodbye.sources { publisherStream(ssrc: ssrc, peer: peer)?.ended() }
            case .nack(let nack):
                statistics.nacksReceived += 1
                if let consumer = consumer(ssrc: nack.mediaSSRC, peer: peer) {
                    retransmit(nack.lostSequenceNumbers, to: consumer, now: now, output: &output)
                }
            case .pictureLossIndication(let pli):
                if let consumer = consumer(ssrc: pli.mediaSSRC, peer: peer) {
                    statistics.keyframeRequestsReceived += 1
                    keyframeRequested(by: consumer, fir: false, now: now, output: &output)
                }
            case .fullIntraRequest(let fir):
                for entry in fir.entries {
                    guard let consumer = consumer(ssrc: entry.ssrc, peer: peer) else { continue }
                    statistics.keyframeRequestsReceived += 1
                    keyframeRequested(by: consumer, fir: true, now: now, output: &output)
                }
            case .other:
                if let remb = try? RTCPReceiverEstimatedMaximumBitrate(packet), let subscriber = subscribers[peer] {
                    subscriber.estimate = remb.bitrate
                    subscriber.estimateTime = now
                    chooseLayers(for: subscriber, now: now)
                }
            case .sourceDescription:
                break
            }
        }
    }

    private func consumer(ssrc: UInt32, peer: PeerID) -> Consumer? {
        guard let consumer = consumerBySSRC[ssrc], consumer.peer == peer else { return nil }
        return consumer
    }

    private func publisherStream(ssrc: UInt32, peer: PeerID) -> ProducerStream? {
        guard let publisher = publishers[peer] else { return nil }
        for producer in publisher.producers {
            if let stream = producer.stream(ssrc: ssrc) { return stream }
        }
        return nil
    }

    /// A publisher's SR: kept for receiver reports (LSR/DLSR) and layer alignment, and passed on
    /// to each consumer forwarding that stream with its SSRC and timestamp offset.
    private func receiveSenderReport(_ report: RTCPSenderReport, from peer: PeerID, now: Double, output: inout RouterOutput) {
        guard let publisher = publishers[peer] else { return }
        for producer in publisher.producers {
            guard let stream = producer.stream(ssrc: report.ssrc) else { continue }
            stream.observeSenderReport(report, arrival: now)
            for consumer in producer.consumers where !consumer.paused {
                sendSenderReport(of: stream, to: consumer, now: now, output: &output)
            }
            return
        }
    }

    /// The stream's last SR rewritten for one consumer (RFC 3550 §6.4.1), with an SDES CNAME
    /// (§6.5.1) so the subscriber ties the consumer's streams of one participant together.
    func sendSenderReport(of stream: ProducerStream, to consumer: Consumer, now: Double, output: inout RouterOutput) {
        guard let report = stream.lastSenderReport, consumer.currentLayer == stream.layer, consumer.generation == stream.generation,
              consumer.rewriter.isSynced
        else { return }
        let rewritten = RTCPSenderReport(ssrc: consumer.ssrc, ntpTimestamp: report.ntp, rtpTimestamp: report.rtp &+ consumer.offsets.timestamp,
                                         packetCount: UInt32(truncatingIfNeeded: consumer.packetsSent),
                                         octetCount: UInt32(truncatingIfNeeded: consumer.octetsSent))
        let cname = RTCPSourceDescription.Item(type: RTCPSourceDescription.Item.cname, text: Array(consumer.producer.cname.utf8.prefix(255)))
        let description = RTCPSourceDescription(chunks: [.init(source: consumer.ssrc, items: [cname])])
        guard let bytes = try? RTCPPacket.marshalCompound([.senderReport(rewritten), .sourceDescription(description)]) else { return }
        output.appendRTCP(bytes, peer: consumer.peer)
        consumer.noteReportSent(report.ntp, at: now)
    }

    /// Report blocks from a subscriber about consumers: loss and round-trip time. Heavy loss
    /// (10 % and more) holds the subscriber's budget under what it was sent, for layer choice.
    private func receiveReceptionReports(_ reports: [RTCPReceptionReport], from peer: PeerID, now: Double) {
        for report in reports {
            guard let consumer = consumer(ssrc: report.ssrc, peer: peer) else { continue }
            consumer.observe(report, now: now)
            if consumer.fractionLost >= 0.1, let subscriber = subscribers[peer] {
                subscriber.lossLimit = 0.85 * sendingRate(of: subscriber, now: now)
                subscriber.lossLimitUntil = now + 2
                chooseLayers(for: subscriber, now: now)
            }
        }
    }

    /// A subscriber's PLI or FIR: the consumer's producer is asked for a keyframe (aggregated
    /// with everyone else's requests for that stream).
    private func keyframeRequested(by consumer: Consumer, fir: Bool, now: Double, output: inout RouterOutput) {
        let producer = consumer.producer
        guard producer.kind.isVideo else { return }
        let stream = producer.streams[consumer.currentLayer ?? consumer.targetLayer]
        wantKeyframe(stream, fir: fir, now: now)
        sendKeyframeRequest(stream, of: producer, now: now, output: &output)
    }

    /// A subscriber's generic NACK (RFC 4585 §6.2.1): each lost number still in the consumer's
    /// log and the stream's cache is sent again: as RTX (RFC 4588 §4, the original sequence
    /// number before the payload, on the RTX SSRC and payload type with their own numbers) when
    /// the subscriber negotiated RTX, else as the same packet again.
    func retransmit(_ lost: [UInt16], to consumer: Consumer, now: Double, output: inout RouterOutput) {
        guard consumer.sendLog != nil else { return }
        let producer = consumer.producer
        let newest = consumer.rewriter.lastOutput
        var elements: [ExtensionElement] = []
        swap(&elements, &replayElements)
        defer { swap(&elements, &replayElements) }
        let sendTime = Self.absSendTime(now)
        for sequence in lost {
            var delta = (Int64(sequence) - newest) & 0xFFFF
            if delta >= 0x8000 { delta -= 0x1_0000 }
            let number = newest + delta
            guard let entry = consumer.sendLog?.entry(number), entry.layer < producer.streams.count else {
                statistics.retransmissionsMissed += 1
                continue
            }
            guard now - entry.lastResent >= configuration.retransmitMinInterval else { continue }
            let stream = producer.streams[entry.layer]
            guard stream.generation == entry.generation else {
                statistics.retransmissionsMissed += 1
                continue
            }
            let codec = producer.parameters.codec
            let written = stream.cache?.withPacket(entry.input, now: now, maxAge: configuration.packetCacheMaxAge) { packet -> Int in
                guard let view = RTPHeaderView(packet), view.elements(in: packet, into: &elements) else { return 0 }
                let vp8 = codec == .vp8 ? VP8Descriptor(packet, from: view.payloadStart, to: view.payloadEnd) : nil
                let before = output.mark
                _ = consumer.write(packet, view: view, elements: elements, output: number, offsets: entry.rewrite, vp8: vp8,
                                   absSendTime: sendTime, asRTX: true, isNewest: false, into: &output)
                return output.mark - before
            } ?? 0
            guard written > 0 else {
                statistics.retransmissionsMissed += 1
                continue
            }
            consumer.sendLog?.markResent(number, at: now)
            statistics.retransmissionsSent += 1
            statistics.packetsSent += 1
            statistics.bytesSent += UInt64(written)
        }
    }

    // MARK: Periodic work

    /// Does what is due by `now`; what to send is appended to `output`.
    public func poll(now: Double, into output: inout RouterOutput) {
        if let change = pendingSpeakerChange {
            pendingSpeakerChange = nil
            output.record(.activeSpeakerChanged(change))
        }
        scheduled = nil
        for publisher in publishers.values.sorted(by: { $0.id < $1.id }) {
            for producer in publisher.producers {
                for stream in producer.streams {
                    requestMissing(stream, of: producer, now: now, output: &output)
                    if stream.keyframeWanted { retryKeyframeRequest(stream, of: producer, now: now, output: &output) }
                }
            }
            if now >= publisher.nextReport {
                sendReports(to: publisher, now: now, output: &output)
                publisher.nextReport = now + configuration.reportInterval
            }
            if publisher.wantsTransportFeedback, now >= publisher.nextFeedback {
                for feedback in publisher.transportFeedback.feedback(senderSSRC: rtcpSSRC, mediaSSRC: publisher.lastMediaSSRC) {
                    var bytes = feedback
                    if !publisher.reducedSizeRTCP, let report = try? RTCPPacket.receiverReport(RTCPReceiverReport(ssrc: rtcpSSRC)).marshal() {
                        bytes = report + feedback
                    }
                    output.appendRTCP(bytes, peer: publisher.id)
                }
                publisher.nextFeedback = now + configuration.transportFeedbackInterval
            }
        }
        closeSpeakerWindow(now: now, output: &output)
        if now >= nextLayerEvaluation {
            for subscriber in subscribers.values.sorted(by: { $0.id < $1.id }) { chooseLayers(for: subscriber, now: now) }
            nextLayerEvaluation = now + 0.5
        }
    }

    /// NACKs the publisher for what is missing and due (RFC 4585 §6.2.1).
    private func requestMissing(_ stream: ProducerStream, of producer: Producer, now: Double, output: inout RouterOutput) {
        guard producer.parameters.feedback.contains(.nack), let ssrc = stream.ssrc else { return }
        lostScratch.removeAll(keepingCapacity: true)
        stream.nack.due(now: now, into: &lostScratch)
        if !lostScratch.isEmpty {
            sendToPublisher(producer.parameters.peer, [.nack(RTCPNack(senderSSRC: rtcpSSRC, mediaSSRC: ssrc, lost: lostScratch))],
                            output: &output)
            statistics.nacksSent += 1
        }
        if let next = stream.nack.nextDeadline { schedule(next) }
    }

    /// Asks again for a keyframe nobody has had yet, while a consumer waits for it; a request
    /// from a subscriber's PLI alone is given up after two seconds.
    private func retryKeyframeRequest(_ stream: ProducerStream, of producer: Producer, now: Double, output: inout RouterOutput) {
        let waiting = producer.consumers.contains { consumer in
            !consumer.paused && consumer.targetLayer == stream.layer
                && !(consumer.currentLayer == stream.layer && consumer.generation == stream.generation && consumer.rewriter.isSynced)
        }
        if !waiting, now - stream.keyframeWantedSince > 2 {
            stream.keyframeWanted = false
            return
        }
        sendKeyframeRequest(stream, of: producer, now: now, output: &output)
        if stream.keyframeWanted { schedule(stream.lastKeyframeRequest + configuration.keyframeRequestInterval) }
    }

    /// Receiver reports for every stream of the connection (RFC 3550 §6.4.2), an SDES CNAME
    /// (§6.5.1) and, where negotiated, a REMB with the estimate for its media SSRCs.
    private func sendReports(to publisher: PublisherPeer, now: Double, output: inout RouterOutput) {
        var blocks: [RTCPReceptionReport] = []
        var ssrcs: [UInt32] = []
        var worstLoss = 0.0
        for producer in publisher.producers {
            for stream in producer.streams {
                if let block = stream.reportBlock(now: now) {
                    blocks.append(block)
                    worstLoss = max(worstLoss, Double(block.fractionLost) / 256)
                }
                if let ssrc = stream.ssrc, stream.isActive(now: now, timeout: configuration.layerInactivityTimeout) { ssrcs.append(ssrc) }
            }
        }
        guard !blocks.isEmpty else { return }
        publisher.estimator.loss(worstLoss, now: now)
        var packets: [RTCPPacket] = []
        var index = 0
        while index < blocks.count {
            let end = min(blocks.count, index + 31)
            packets.append(.receiverReport(RTCPReceiverReport(ssrc: rtcpSSRC, reports: Array(blocks[index..<end]))))
            index = end
        }
        let cname = RTCPSourceDescription.Item(type: RTCPSourceDescription.Item.cname, text: Array("revue-sfu".utf8))
        packets.append(.sourceDescription(RTCPSourceDescription(chunks: [.init(source: rtcpSSRC, items: [cname])])))
        if publisher.wantsREMB, !ssrcs.isEmpty {
            let bitrate = publisher.estimator.update(now: now, loss: worstLoss)
            if let remb = try? RTCPReceiverEstimatedMaximumBitrate(senderSSRC: rtcpSSRC, bitrate: bitrate, ssrcs: Array(ssrcs.prefix(255))).packet() {
                packets.append(remb)
            }
        }
        guard let bytes = try? RTCPPacket.marshalCompound(packets) else { return }
        output.appendRTCP(bytes, peer: publisher.id)
    }

    /// Ends an active-speaker window: each participant's average level over it, loudest of their
    /// audio producers.
    private func closeSpeakerWindow(now: Double, output: inout RouterOutput) {
        guard let end = nextSpeakerWindow, now >= end else { return }
        var levels: [ParticipantID: Double] = [:]
        for producer in producers.values where producer.kind == .audio && producer.extensions.audioLevel != nil {
            let average = producer.levelCount > 0 ? producer.levelSum / Double(producer.levelCount) : -127
            let participant = producer.parameters.participant
            levels[participant] = max(levels[participant] ?? -127, average)
            producer.levelSum = 0
            producer.levelCount = 0
        }
        guard !levels.isEmpty else {
            nextSpeakerWindow = nil
            return
        }
        let ordered = levels.sorted { $0.key.rawValue < $1.key.rawValue }.map { (participant: $0.key, dBov: $0.value) }
        if let change = speakerDetector.closeWindow(levels: ordered, now: now) { output.record(.activeSpeakerChanged(change)) }
        let window = configuration.speaker.window
        nextSpeakerWindow = end + window > now ? end + window : now + window
    }
}
