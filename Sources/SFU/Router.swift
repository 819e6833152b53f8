import RTP

/// The selective forwarding unit of one room: publishers' tracks (producers) in, each
/// subscriber's copies (consumers) out, and the RTCP both sides need.
///
/// The router has no sockets, crypto or threads. The caller's transport hands it plain RTP and
/// RTCP as they arrive (after SRTP), sends what it returns (after SRTP), and calls `poll(now:)`
/// by `nextDeadline`. Time is the caller's monotonic clock in seconds, passed to every call.
///
/// Use it from one thread: it is a plain class with no locks. On the hot path
/// (`receiveRTP(_:fromProducer:now:into:)`) it reads each packet once in place, rewrites one
/// copy per consumer straight into the caller's reusable `RouterOutput`, and allocates nothing
/// once its buffers have grown.
///
/// What it does (webrtc-interop.md §4):
/// - per consumer: SSRC, payload type, sequence number, timestamp, VP8 picture ID and header
///   extension rewriting, continuous across layer switches and producer restarts, padding-only
///   packets dropped without holes;
/// - keyframes: a consumer starts, and switches layer, only at a keyframe, and asks for one
///   (PLI, or FIR), at most once per `keyframeRequestInterval` per stream;
/// - NACK: answered from a per-stream cache, as RTX where negotiated; gaps from publishers NACKed;
/// - RTCP: publishers' sender reports passed on rewritten, receiver reports to publishers, REMB
///   and transport-wide CC feedback so Chromium ramps up;
/// - simulcast: each consumer's layer from its preference and its subscriber's REMB and loss;
/// - active speaker from RFC 6464 audio levels.
public final class Router {
    public let configuration: RouterConfiguration
    /// The SSRC the router's own RTCP toward publishers carries as sender.
    public let rtcpSSRC: UInt32
    /// Counters since the start, for metrics.
    public internal(set) var statistics = RouterStatistics()

    var producers: [ProducerID: Producer] = [:]
    var consumers: [ConsumerID: Consumer] = [:]
    var publishers: [PeerID: PublisherPeer] = [:]
    var subscribers: [PeerID: SubscriberPeer] = [:]
    /// Outgoing SSRC (media and RTX) → consumer, to route subscribers' RTCP.
    var consumerBySSRC: [UInt32: Consumer] = [:]
    var usedSSRCs: Set<UInt32> = []
    var random: RandomSource
    private var nextProducerNumber: UInt32 = 1
    private var nextConsumerNumber: UInt32 = 1

    var speakerDetector: ActiveSpeakerDetector
    var nextSpeakerWindow: Double?
    var nextLayerEvaluation = -Double.infinity
    /// The earliest one-off work (NACKs, keyframe requests) `poll` must do.
    var scheduled: Double?

    // Scratch storage reused across packets.
    var elements: [ExtensionElement] = []
    var replayElements: [ExtensionElement] = []
    var recoveryBuffer: [UInt8] = []
    var lostScratch: [UInt16] = []
    private var scratchOutput = RouterOutput()

    public init(configuration: RouterConfiguration = RouterConfiguration()) {
        self.configuration = configuration
        var random = RandomSource(seed: configuration.seed)
        var ssrc = random.next32()
        while ssrc == 0 { ssrc = random.next32() }
        rtcpSSRC = ssrc
        usedSSRCs.insert(ssrc)
        self.random = random
        speakerDetector = ActiveSpeakerDetector(configuration: configuration.speaker)
        elements.reserveCapacity(16)
        replayElements.reserveCapacity(16)
        recoveryBuffer.reserveCapacity(1500)
        lostScratch.reserveCapacity(64)
    }

    /// The room's active speaker, as last announced.
    public var activeSpeaker: ParticipantID? { speakerDetector.speaker }

    // MARK: Producers

    /// Adds a publisher's track. Its packets are then accepted by `receiveRTP`.
    public func addProducer(_ parameters: ProducerParameters, now: Double) throws(SFUError) -> ProducerID {
        guard parameters.clockRate > 0 else { throw SFUError(.invalidParameters("clock rate 0")) }
        guard parameters.payloadType < 128, parameters.rtxPayloadType.map({ $0 < 128 }) ?? true else {
            throw SFUError(.invalidParameters("payload types must be below 128"))
        }
        guard parameters.rtxPayloadType != parameters.payloadType else {
            throw SFUError(.invalidParameters("RTX payload type \(parameters.payloadType) is the media payload type"))
        }
        guard parameters.layers.count <= 8 else { throw SFUError(.invalidParameters("\(parameters.layers.count) layers, at most 8")) }
        let rids = parameters.layers.compactMap(\.rid)
        guard Set(rids).count == rids.count else { throw SFUError(.invalidParameters("duplicate RIDs \(rids)")) }
        if parameters.layers.count > 1 {
            guard parameters.layers.allSatisfy({ $0.rid != nil || $0.ssrc != nil }) else {
                throw SFUError(.invalidParameters("simulcast layers need a RID or an SSRC"))
            }
            guard rids.isEmpty || parameters.extensions.rid != nil || parameters.layers.allSatisfy({ $0.ssrc != nil }) else {
                throw SFUError(.invalidParameters("RID layers without the rtp-stream-id extension cannot be told apart"))
            }
        }
        let id = ProducerID(nextProducerNumber)
        nextProducerNumber += 1
        let producer = Producer(id: id, parameters: parameters, configuration: configuration)
        producers[id] = producer
        let publisher = publishers[parameters.peer] ?? PublisherPeer(id: parameters.peer, configuration: configuration, now: now)
        publishers[parameters.peer] = publisher
        publisher.producers.append(producer)
        publisher.refresh()
        for layer in parameters.layers {
            if let ssrc = layer.ssrc {
                usedSSRCs.insert(ssrc)
                publisher.producerBySSRC[ssrc] = producer
            }
            if let rtx = layer.rtxSSRC {
                usedSSRCs.insert(rtx)
                publisher.producerBySSRC[rtx] = producer
            }
        }
        if parameters.kind == .audio, parameters.extensions.audioLevel != nil, nextSpeakerWindow == nil {
            nextSpeakerWindow = now + configuration.speaker.window
        }
        return id
    }

    /// Removes a producer and every consumer of it. Returns those consumers, whose subscriber
    /// sections the caller marks inactive.
    @discardableResult
    public func removeProducer(_ id: ProducerID) -> [ConsumerID] {
        guard let producer = producers.removeValue(forKey: id) else { return [] }
        let removed = producer.consumers.map(\.id)
        for consumer in producer.consumers { detach(consumer) }
        producer.consumers.removeAll()
        if let publisher = publishers[producer.parameters.peer] {
            publisher.producers.removeAll { $0 === producer }
            publisher.producerBySSRC = publisher.producerBySSRC.filter { $0.value !== producer }
            publisher.refresh()
            if publisher.producers.isEmpty { publishers[producer.parameters.peer] = nil }
        }
        if producer.kind == .audio {
            let participant = producer.parameters.participant
            let stillHasAudio = producers.values.contains { $0.kind == .audio && $0.parameters.participant == participant }
            if !stillHasAudio, let change = speakerDetector.remove(participant) { pendingSpeakerChange = change }
        }
        return removed
    }

    /// A speaker change found outside `poll` (a removal), announced by the next `poll`.
    var pendingSpeakerChange: ParticipantID??

    // MARK: Consumers

    /// Adds a subscriber's copy of a producer. It forwards nothing until the first keyframe,
    /// which it asks for at once (by the next `poll`) unless `options.paused`.
    public func addConsumer(of producerID: ProducerID, _ options: ConsumerOptions, now: Double) throws(SFUError) -> ConsumerParameters {
        guard let producer = producers[producerID] else { throw SFUError(.unknownProducer(producerID)) }
        guard options.payloadType.map({ $0 < 128 }) ?? true, options.rtxPayloadType.map({ $0 < 128 }) ?? true else {
            throw SFUError(.invalidParameters("payload types must be below 128"))
        }
        if let rtx = options.rtxPayloadType, rtx == options.payloadType ?? producer.parameters.payloadType {
            throw SFUError(.invalidParameters("RTX payload type \(rtx) is the media payload type"))
        }
        let ssrc: UInt32
        if let given = options.ssrc {
            guard consumerBySSRC[given] == nil, given != rtcpSSRC else { throw SFUError(.ssrcInUse(given)) }
            ssrc = given
        } else {
            ssrc = freshSSRC()
        }
        usedSSRCs.insert(ssrc)
        var rtxSSRC: UInt32?
        if options.rtxPayloadType != nil {
            if let given = options.rtxSSRC {
                guard consumerBySSRC[given] == nil, given != ssrc, given != rtcpSSRC else { throw SFUError(.ssrcInUse(given)) }
                rtxSSRC = given
            } else {
                rtxSSRC = freshSSRC()
            }
            if let rtxSSRC { usedSSRCs.insert(rtxSSRC) }
        }
        let id = ConsumerID(nextConsumerNumber)
        nextConsumerNumber += 1
        let consumer = Consumer(id: id, peer: options.peer, producer: producer, options: options, ssrc: ssrc, rtxSSRC: rtxSSRC,
                                firstSequence: random.next16(), firstRTXSequence: random.next16(),
                                cacheCapacity: configuration.packetCacheCapacity)
        consumers[id] = consumer
        consumerBySSRC[ssrc] = consumer
        if let rtxSSRC { consumerBySSRC[rtxSSRC] = consumer }
        producer.consumers.append(consumer)
        let subscriber = subscribers[options.peer] ?? SubscriberPeer(id: options.peer)
        subscribers[options.peer] = subscriber
        subscriber.consumers.append(consumer)
        if nextLayerEvaluation == -.infinity { nextLayerEvaluation = now + 0.5 }
        if !consumer.paused {
            chooseLayers(for: subscriber, now: now)
            if producer.kind.isVideo { wantKeyframe(producer.streams[consumer.targetLayer], fir: false, now: now) }
        }
        return ConsumerParameters(id: id, producer: producerID, kind: producer.kind, codec: producer.parameters.codec,
                                  clockRate: producer.parameters.clockRate, ssrc: ssrc, rtxSSRC: rtxSSRC,
                                  payloadType: consumer.payloadType, rtxPayloadType: consumer.rtxPayloadType, cname: producer.cname)
    }

    /// Removes a consumer.
    public func removeConsumer(_ id: ConsumerID) {
        guard let consumer = consumers[id] else { return }
        consumer.producer.consumers.removeAll { $0 === consumer }
        detach(consumer)
    }

    private func detach(_ consumer: Consumer) {
        consumers[consumer.id] = nil
        consumerBySSRC[consumer.ssrc] = nil
        usedSSRCs.remove(consumer.ssrc)
        if let rtx = consumer.rtxSSRC {
            consumerBySSRC[rtx] = nil
            usedSSRCs.remove(rtx)
        }
        if let subscriber = subscribers[consumer.peer] {
            subscriber.consumers.removeAll { $0 === consumer }
            if subscriber.consumers.isEmpty { subscribers[consumer.peer] = nil }
        }
    }

    /// Removes everything of one connection: the producers it publishes (and their consumers)
    /// and the consumers it receives.
    @discardableResult
    public func removePeer(_ peer: PeerID) -> (producers: [ProducerID], consumers: [ConsumerID]) {
        let ownProducers = producers.values.filter { $0.parameters.peer == peer }.map(\.id).sorted()
        var removedConsumers: [ConsumerID] = []
        for id in ownProducers { removedConsumers += removeProducer(id) }
        let ownConsumers = consumers.values.filter { $0.peer == peer }.map(\.id).sorted()
        for id in ownConsumers { removeConsumer(id) }
        return (ownProducers, (removedConsumers + ownConsumers).sorted())
    }

    /// Sets the layer a consumer would like; the router moves to it (at its next keyframe) as
    /// far as the subscriber's bandwidth allows.
    public func setPreferredQuality(consumer id: ConsumerID, _ quality: PreferredQuality, now: Double) throws(SFUError) {
        guard let consumer = consumers[id] else { throw SFUError(.unknownConsumer(id)) }
        consumer.preferred = quality
        consumer.upgradeLayer = nil
        if let subscriber = subscribers[consumer.peer] { chooseLayers(for: subscriber, now: now, immediate: true) }
    }

    /// Stops forwarding to a consumer (its subscriber keeps the section).
    public func pauseConsumer(_ id: ConsumerID) throws(SFUError) {
        guard let consumer = consumers[id] else { throw SFUError(.unknownConsumer(id)) }
        consumer.paused = true
    }

    /// Starts forwarding again, from the next keyframe (which it asks for).
    public func resumeConsumer(_ id: ConsumerID, now: Double) throws(SFUError) {
        guard let consumer = consumers[id] else { throw SFUError(.unknownConsumer(id)) }
        guard consumer.paused else { return }
        consumer.paused = false
        consumer.rewriter.reset()
        if let subscriber = subscribers[consumer.peer] { chooseLayers(for: subscriber, now: now, immediate: true) }
        if consumer.producer.kind.isVideo { wantKeyframe(consumer.producer.streams[consumer.targetLayer], fir: false, now: now) }
    }

    /// Asks the consumer's producer for a keyframe, as if the subscriber had sent a PLI.
    public func requestKeyframe(consumer id: ConsumerID, now: Double) throws(SFUError) {
        guard let consumer = consumers[id] else { throw SFUError(.unknownConsumer(id)) }
        guard consumer.producer.kind.isVideo else { return }
        wantKeyframe(consumer.producer.streams[consumer.currentLayer ?? consumer.targetLayer], fir: false, now: now)
    }

    /// A snapshot of a consumer.
    public func consumerState(_ id: ConsumerID) -> ConsumerState? {
        guard let consumer = consumers[id] else { return nil }
        var state = consumer.state
        state.estimatedBitrate = subscribers[consumer.peer]?.estimate
        return state
    }

    /// The fraction of a producer's packets lost on the way in over the last report interval,
    /// its worst layer's (nil for an unknown producer).
    public func producerFractionLost(_ id: ProducerID) -> Double? {
        producers[id].map { $0.streams.map(\.lastFractionLost).max() ?? 0 }
    }

    /// Every producer's ID, in order.
    public var producerIDs: [ProducerID] { producers.keys.sorted() }

    /// Every consumer's ID, in order.
    public var consumerIDs: [ConsumerID] { consumers.keys.sorted() }

    func freshSSRC() -> UInt32 {
        var ssrc = random.next32()
        while ssrc == 0 || usedSSRCs.contains(ssrc) { ssrc = random.next32() }
        return ssrc
    }

    // MARK: Packets in

    /// A publisher's RTP packet for a known producer (the caller demultiplexed it). Returns what
    /// to send; see `receiveRTP(_:fromProducer:now:into:)` for the allocation-free form.
    public func receiveRTP(_ packet: [UInt8], fromProducer producer: ProducerID, now: Double) -> [RouterAction] {
        withScratch { receiveRTP(packet, fromProducer: producer, now: now, into: &$0) }
    }

    /// A publisher's RTP packet for a known producer; what to send is appended to `output`.
    public func receiveRTP(_ packet: [UInt8], fromProducer id: ProducerID, now: Double, into output: inout RouterOutput) {
        packet.withUnsafeBufferPointer { receiveRTP($0, fromProducer: id, now: now, into: &output) }
    }

    /// The same for a packet in the caller's buffer (for example a `recvmmsg` slot), read in
    /// place and not kept.
    public func receiveRTP(_ packet: UnsafeBufferPointer<UInt8>, fromProducer id: ProducerID, now: Double,
                           into output: inout RouterOutput)
    {
        guard let producer = producers[id], let view = RTPHeaderView(packet), !Self.isRTCP(view),
              view.elements(in: packet, into: &elements)
        else {
            statistics.packetsDropped += 1
            return
        }
        let elements = elements
        if let publisher = publishers[producer.parameters.peer] {
            recordTransport(packet, view: view, elements: elements, publisher: publisher, now: now)
        }
        receive(packet, view: view, elements: elements, producer: producer, now: now, output: &output)
    }

    /// A publisher's RTP packet, demultiplexed here (RFC 8843 §9.2): by SSRC, then by the MID
    /// extension, then by payload type.
    public func receiveRTP(_ packet: [UInt8], fromPeer peer: PeerID, now: Double) -> [RouterAction] {
        withScratch { receiveRTP(packet, fromPeer: peer, now: now, into: &$0) }
    }

    /// A publisher's RTP packet, demultiplexed here; what to send is appended to `output`.
    public func receiveRTP(_ packet: [UInt8], fromPeer peer: PeerID, now: Double, into output: inout RouterOutput) {
        packet.withUnsafeBufferPointer { receiveRTP($0, fromPeer: peer, now: now, into: &output) }
    }

    /// The same for a packet in the caller's buffer, read in place and not kept.
    public func receiveRTP(_ packet: UnsafeBufferPointer<UInt8>, fromPeer peer: PeerID, now: Double, into output: inout RouterOutput) {
        guard let publisher = publishers[peer], let view = RTPHeaderView(packet), !Self.isRTCP(view),
              view.elements(in: packet, into: &elements)
        else {
            statistics.packetsDropped += 1
            return
        }
        let elements = elements
        recordTransport(packet, view: view, elements: elements, publisher: publisher, now: now)
        guard let producer = publisher.producerBySSRC[view.ssrc] ?? demultiplex(packet, view: view, elements: elements, publisher) else {
            statistics.packetsDropped += 1
            return
        }
        receive(packet, view: view, elements: elements, producer: producer, now: now, output: &output)
        if publisher.producerBySSRC[view.ssrc] == nil, producer.streams.contains(where: { $0.ssrc == view.ssrc || $0.rtxSSRC == view.ssrc }) {
            publisher.producerBySSRC[view.ssrc] = producer
        }
    }

    private func demultiplex(_ packet: UnsafeBufferPointer<UInt8>, view: RTPHeaderView, elements: [ExtensionElement],
                             _ publisher: PublisherPeer) -> Producer?
    {
        if let element = elements.find(publisher.midID) {
            for producer in publisher.producers {
                guard let mid = producer.parameters.mid else { continue }
                let utf8 = mid.utf8
                if utf8.count == element.length, zip(utf8, packet[element.start..<element.start + element.length]).allSatisfy({ $0 == $1 }) {
                    return producer
                }
            }
            return nil
        }
        let matches = publisher.producers.filter {
            $0.parameters.payloadType == view.payloadType || $0.parameters.rtxPayloadType == view.payloadType
        }
        return matches.count == 1 ? matches[0] : nil
    }

    /// RFC 5761 §4: RTCP packet types 200–223 read as marker + payload type 72–95.
    static func isRTCP(_ view: RTPHeaderView) -> Bool {
        view.marker && (64...95).contains(view.payloadType)
    }

    /// RTCP from a peer: a subscriber's RR, NACK, PLI, FIR and REMB about its consumers, or a
    /// publisher's SR and BYE about its producers.
    public func receiveRTCP(_ packet: [UInt8], fromPeer peer: PeerID, now: Double) -> [RouterAction] {
        withScratch { receiveRTCP(packet, fromPeer: peer, now: now, into: &$0) }
    }

    // MARK: Time

    /// Does what is due by `now`: NACKs and keyframe requests, receiver reports, REMB and
    /// transport-wide feedback to publishers, active-speaker windows, layer choices.
    public func poll(now: Double) -> [RouterAction] {
        withScratch { poll(now: now, into: &$0) }
    }

    /// When `poll` next has work; nil when nothing is scheduled. A time at or before now (or
    /// `-infinity`, after a removal changed the active speaker) means at once.
    public var nextDeadline: Double? {
        var deadline = scheduled
        func consider(_ time: Double?) {
            guard let time else { return }
            deadline = min(deadline ?? time, time)
        }
        for publisher in publishers.values {
            consider(publisher.nextReport)
            if publisher.wantsTransportFeedback { consider(publisher.nextFeedback) }
        }
        consider(nextSpeakerWindow)
        if pendingSpeakerChange != nil { consider(-Double.infinity) }
        if !subscribers.isEmpty { consider(nextLayerEvaluation) }
        return deadline
    }

    func schedule(_ time: Double) {
        scheduled = min(scheduled ?? time, time)
    }

    private func withScratch(_ body: (inout RouterOutput) -> Void) -> [RouterAction] {
        var output = RouterOutput(byteCapacity: 0, packetCapacity: 0)
        swap(&output, &scratchOutput)
        output.removeAll()
        body(&output)
        let actions = output.actions
        output.removeAll()
        swap(&output, &scratchOutput)
        return actions
    }
}
