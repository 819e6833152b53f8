import DataChannel
import Encode
import Foundation
import FrameCrypto
import JobSpec
import Log
import Media
import RTP
import SDP
import Signaling
import Transport
import Capture

/// The media thread: sources, capture and encoding, the connection, data channels, pacing, the bitrate.
extension RoomPublisher {
    // MARK: - The media thread

    /// The device's media clock at real time `real` (`Configuration.clockSkew`).
    func deviceTime(_ real: Double) -> Double { real + (real - clockStart) * configuration.clockSkew }

    /// The real time at which the device's clock reads `device`.
    func realTime(_ device: Double) -> Double { clockStart + (device - clockStart) / (1 + configuration.clockSkew) }

    func run() {
        while !shouldStop {
            let now = EventLoop.now()
            // Media (capture, timestamps, sender reports) runs on the device's clock; the network on real time.
            let deviceNow = deviceTime(now)
            handleSignalling(now: now)
            takeSources(now: deviceNow)
            takeDirectedRequests()
            publishAgainIfAsked()
            renegotiateIfNeeded()
            link.poll(now: now)
            if sender == nil, link.isConnected { startMedia(now: now, deviceNow: deviceNow) }
            if dataChannels != nil { runDataChannels(now: now) }
            if sender != nil {
                capture(now: deviceNow)
                // The clock again after encoding: the send times the TWCC estimate compares with
                // arrivals must not carry the encoder's time, which load and keyframes vary.
                if let actions = sender?.poll(now: deviceTime(EventLoop.now())) { perform(actions) }
            }
            publish()
            // SCTP's timers (retransmission, heartbeats) are polled every 50 ms while it runs.
            let wake = [sender?.nextDeadline(now: deviceNow).map(realTime), link.nextDeadline, nextCaptureTime.map(realTime),
                        dataChannels.map { _ in now + 0.05 }]
                .compactMap { $0 }.min() ?? now + 1
            let (datagrams, _) = link.wait(timeout: min(1, max(0, wake - EventLoop.now())), wake: signaling.wakeDescriptor)
            if datagrams { receive() }
        }
        if let bye = sender?.goodbye(now: deviceTime(EventLoop.now())) { link.sendRTCP(bye) }
        for packet in dataChannels?.close() ?? [] { link.sendApplicationData(packet) }
        // `leave` before closing DTLS: the server takes a closed media connection for a lost
        // participant (1001), and the room should hear that this one left (1101).
        signaling.leave(reason: lock.withLock { leaveReason })
        endReceiving(reason: "left the room")
        link.close(reason: "left the room")
        // Whoever waits for a track for one participant hears that it will not come (a room
        // that reconnects carries on without this publisher).
        let requests = lock.withLock {
            mediaThreadEnded = true
            defer { directedRequests.removeAll() }
            return directedRequests
        }
        let why = "the publisher has stopped: \(failure ?? "it left the room")"
        for case .publish(_, _, _, _, let completion) in requests { completion(.failure(DirectedVideoError(why))) }
        refuseSections(offeredSections + waitingSections, because: why)
        offeredSections = []
        waitingSections = []
        publish()
    }

    /// A frame as it is sent: encrypted (E2EEFrame) when this participant joined with a key,
    /// else as it is. Nil when encryption failed: the frame is not sent in the clear instead.
    func sealed(_ frame: [UInt8], ssrc: UInt32, codec: TrackCodec) -> [UInt8]? {
        guard let joinedWith = e2eeKey else { return frame }
        let key = configuration.e2eeKeys?()?.key(for: participantID) ?? encryptors[ssrc]?.baseKey ?? joinedWith
        do {
            if encryptors[ssrc]?.baseKey != key {
                encryptors[ssrc] = try FrameEncryptor(baseKey: key, codec: codec)
            }
            return try encryptors[ssrc]?.encrypt(frame)
        } catch {
            logger.error("a frame did not encrypt; it is not sent", ["error": .string("\(error)")])
            return nil
        }
    }

    /// The camera section's codec's encoder for pictures of `format`, at `bitrate`, with a keyframe
    /// every 10 s besides the ones PLI/FIR ask for. libvpx refuses under 10 kb/s (a small
    /// config's quarter-size layer comes to 7.5), so a lower rate is sent at 10 kb/s.
    static func videoEncoder(for format: CameraFormat, bitrate: Int, codec: PublishedVideoCodec, _ configuration: Configuration) throws
        -> any RealTimeVideoEncoder
    {
        switch codec {
        case .vp8:
            try VP8Encoder(settings: VP8Encoder.Settings(width: format.width, height: format.height, framesPerSecond: format.framesPerSecond,
                                                         bitrate: max(10_000, bitrate), keyframeInterval: format.framesPerSecond * 10,
                                                         cpuUsed: configuration.cpuUsed))
        case .h264:
            try H264Encoder(settings: H264Encoder.Settings(width: format.width, height: format.height, framesPerSecond: format.framesPerSecond,
                                                           bitrate: max(10_000, bitrate), keyframeInterval: format.framesPerSecond * 10))
        }
    }

    /// The video streams for a camera of `format`: one at `bitrate`, or a simulcast layer for
    /// each of `simulcast`, which take the offered streams from the top (two layers in a
    /// three-layer offer are `h` and `f`, one is `f`), each scaled down from the camera's
    /// pictures (`LayerScaler`) unless it is the camera's size.
    static func videoLayers(for format: CameraFormat, bitrate: Int, simulcast: [SimulcastEncoding],
                            streams: [(rid: String?, ssrc: UInt32, rtxSSRC: UInt32)], codec: PublishedVideoCodec,
                            _ configuration: Configuration) throws -> [VideoLayer]
    {
        guard !simulcast.isEmpty, streams.allSatisfy({ $0.rid != nil }) else {
            // One stream, on the top one's SSRC (and RID, in a simulcast section).
            return [VideoLayer(rid: streams[streams.count - 1].rid, ssrc: streams[streams.count - 1].ssrc, rtxSSRC: streams[streams.count - 1].rtxSSRC,
                               encoder: try videoEncoder(for: format, bitrate: bitrate, codec: codec, configuration), scaler: nil, bitrate: bitrate)]
        }
        return try zip(simulcast.suffix(streams.count), streams.suffix(simulcast.count)).map { encoding, stream in
            let size = encoding.format(for: format)
            let scaler = size == format ? nil : try LayerScaler(from: format, width: size.width, height: size.height)
            return VideoLayer(rid: stream.rid, ssrc: stream.ssrc, rtxSSRC: stream.rtxSSRC,
                              encoder: try videoEncoder(for: size, bitrate: encoding.bitrate, codec: codec, configuration), scaler: scaler,
                              bitrate: encoding.bitrate)
        }
    }

    /// Takes the sources `setCamera`/`setMicrophone` asked for. A new camera starts with a
    /// keyframe (the subscribers' decoders have nothing of it) and at the current frame number,
    /// so it does not send the frames it missed; one of another size gets a new encoder.
    func takeSources(now: Double) {
        let (changed, wanted, wantedSound, askedBitrate, askedLayers, askedAudioBitrate, askedChannels, asks) = lock.withLock {
            defer { sourcesChanged = false }
            return (sourcesChanged, wantedCamera, wantedMicrophone, wantedBitrate, wantedSimulcast, wantedAudioBitrate, wantedAudioChannels, cameraAsks)
        }
        guard changed else { return }
        // Once the camera section is offered again if these asked for it (`waitForCamera`).
        defer { lock.withLock { cameraAsksTaken = max(cameraAsksTaken, asks) } }
        microphone = offeredNow.contains(.audio) ? wantedSound : nil
        if let askedChannels, let current = audioEncoder, current.channels != askedChannels {
            do {
                audioEncoder = try OpusEncoder(channels: askedChannels, bitrate: askedAudioBitrate ?? current.bitrate)
                statistics.audioBitrate = askedAudioBitrate ?? current.bitrate
                logger.info("the microphone sends \(askedChannels == 2 ? "stereo" : "mono") from its next frame")
            } catch {
                logger.error("the microphone's channels were not changed", ["error": .string("\(error)")])
            }
        }
        if let askedAudioBitrate, let audioEncoder, audioEncoder.bitrate != askedAudioBitrate {
            do {
                try audioEncoder.setBitrate(askedAudioBitrate)
                statistics.audioBitrate = askedAudioBitrate
            } catch {
                logger.error("the microphone's bitrate was not applied", ["error": .string("\(error)")])
            }
        }
        guard offeredNow.contains(.video) else { return }
        moveCameraSectionIfAsked()
        let bitrate = askedBitrate ?? configuration.videoBitrate ?? wanted?.format.defaultBitrate
        // Simulcast stays simulcast: the offer named its layers. A camera asking for none (`[]`)
        // sends one stream, on the top layer's SSRC and RID.
        let simulcastSection = videoStreams.contains { $0.rid != nil }
        let layers = simulcastSection ? Array((askedLayers ?? configuration.simulcast).suffix(videoStreams.count)) : []
        if let wanted, let bitrate, videoLayers.isEmpty || camera?.format != wanted.format || videoBitrate != bitrate || layerSettings != layers {
            do {
                videoLayers = try Self.videoLayers(for: wanted.format, bitrate: bitrate, simulcast: layers, streams: videoStreams, codec: videoCodec,
                                                   configuration)
                videoBitrate = bitrate
                layerSettings = layers
                statistics.videoBitrate = videoLayers.reduce(0) { $0 + $1.bitrate }
            } catch {
                logger.error("no encoder for the new camera", ["error": .string("\(error)"), "camera": .string("\(wanted.format)")])
                videoLayers = []
            }
        }
        if wanted !== camera { for layer in videoLayers { layer.keyframeWanted = true } }
        camera = wanted
        if let sender, let wanted {
            nextVideoFrame = Int(((now - sender.origin) * Double(wanted.format.framesPerSecond)).rounded(.down))
        }
        if let sender { nextAudioFrame = max(nextAudioFrame, Int(((now - sender.origin) / 0.02).rounded(.down))) }
    }

    /// Starts sending: media on the device's clock (`deviceNow`), the rest on real time.
    func startMedia(now: Double, deviceNow: Double) {
        sender = MediaSender(tracks: tracks, cname: cname, origin: deviceNow, wallClock: Date().timeIntervalSince1970,
                             pacingBitsPerSecond: pacingRate)
        // Starts at the pacing rate, which leaves the configured rates as they are until the
        // TWCC feedback shows a queue building or packets lost.
        sender?.transportEstimator = SendSideBandwidthEstimator(initial: pacingRate, minimum: RoomPublisher.minimumEstimate,
                                                                maximum: RoomPublisher.maximumEstimate)
        if let answeredAt { statistics.secondsToConnect = now - answeredAt }
        statistics.videoBitrate = videoLayers.reduce(0) { $0 + $1.encoder.bitrate }
        // Data channels that are open already (a sender started again) go on as they are.
        if dataAccepted && dataChannels == nil {
            do {
                let channels = try ClientDataChannels()
                dataChannels = channels
                deliver(channels.start(now: now))
            } catch {
                logger.error("the data channels did not start", ["error": .string("\(error)")])
            }
        }
        logger.info("publishing", ["tracks": .string(tracks.map(\.codec.rawValue).joined(separator: " + ")),
                                   "camera": .string(camera.map { "\($0.format)" } ?? "none")])
    }

    /// When the next picture or sound is due, once sending.
    var nextCaptureTime: Double? {
        guard let sender else { return nil }
        var times: [Double] = []
        if let camera, !videoLayers.isEmpty || !directed.isEmpty {
            times.append(sender.origin + Double(nextVideoFrame) / Double(camera.format.framesPerSecond))
        }
        if microphone != nil, audioEncoder != nil { times.append(sender.origin + Double(nextAudioFrame) * 0.02) }
        if let share = nextOwnSourceTime(origin: sender.origin) { times.append(share) }
        return times.min()
    }

    /// Encodes and queues every picture and sound that is due. A publisher more than two frames
    /// (or five sound frames) late skips ahead, as a browser's encoder does under load: the room
    /// gets a lower frame rate rather than a growing delay.
    func capture(now: Double) {
        guard var sender else { return }
        defer { self.sender = sender }
        let elapsed = now - sender.origin
        if let camera, !videoLayers.isEmpty || !directed.isEmpty {
            let rate = Double(camera.format.framesPerSecond)
            let due = Int((elapsed * rate).rounded(.down))
            if due - nextVideoFrame >= 2 {
                statistics.videoFramesSkipped += due - nextVideoFrame
                nextVideoFrame = due
            }
            // The layers the answer accepted, each with its track.
            let sent = videoLayers.compactMap { layer in tracks.first { $0.ssrc == layer.ssrc }.map { (layer, $0) } }
            while nextVideoFrame <= due {
                let index = nextVideoFrame
                nextVideoFrame += 1
                // A pacer holding half a second is a link that cannot take more: skip the picture.
                if sender.queueDelay > 0.5 && !sent.contains(where: { $0.0.keyframeWanted }) && !directed.values.contains(where: \.keyframeWanted) {
                    statistics.videoFramesSkipped += 1
                    continue
                }
                let picture = camera.frame(index)
                for (layer, track) in sent {
                    do {
                        guard let frame = try layer.encoder.encode(layer.scaler?.scale(picture) ?? picture, forceKeyframe: layer.keyframeWanted)
                        else { continue }
                        if frame.isKeyframe { layer.keyframeWanted = false }
                        guard let data = sealed(frame.data, ssrc: track.ssrc, codec: videoCodec.trackCodec) else { continue }
                        sender.send(frame: data, ssrc: track.ssrc, mediaTime: Double(index) / rate)
                    } catch {
                        logger.error("a picture did not encode", ["error": .string("\(error)"), "rid": .string(layer.rid ?? "")])
                    }
                }
                encodeDirected(picture, format: camera.format, mediaTime: Double(index) / rate, sender: &sender)
                if let top = videoLayers.last {
                    statistics.videoFramesEncoded = top.encoder.framesEncoded
                    statistics.keyframesEncoded = top.encoder.keyframesEncoded
                }
            }
        }
        if let microphone, let encoder = audioEncoder, let track = tracks.first(where: { $0.codec == .opus }) {
            let due = Int((elapsed / 0.02).rounded(.down))
            if due - nextAudioFrame >= 5 {
                statistics.audioFramesSkipped += due - nextAudioFrame
                nextAudioFrame = due
            }
            while nextAudioFrame <= due {
                let index = nextAudioFrame
                nextAudioFrame += 1
                let samples = microphone.samples(from: index * OpusEncoder.frameSamples, count: OpusEncoder.frameSamples, channels: encoder.channels)
                do {
                    guard let packet = sealed(try encoder.encode(samples), ssrc: track.ssrc, codec: .opus) else { continue }
                    sender.send(frame: packet, ssrc: track.ssrc, mediaTime: Double(index) * 0.02, audioLevel: AudioLevel.of(samples))
                    statistics.audioFramesEncoded += 1
                } catch {
                    logger.error("a sound frame did not encode", ["error": .string("\(error)")])
                }
            }
        }
        captureOwnSources(elapsed: elapsed, sender: &sender)
        statistics.mediaSeconds = elapsed
    }

    func receive() {
        let now = EventLoop.now()
        var actions: [MediaSender.Action] = []
        link.receive(now: now) { event in
            switch event {
            case .rtcp(let packet):
                if let made = sender?.receiveRTCP(packet, now: deviceTime(now)) { actions += made }
            case .applicationData(let packet):
                if let channels = dataChannels { deliver(channels.receive(packet, now: now)) }
            case .stateChanged(.closed(let reason)):
                if configuration.stopsWithMedia {
                    stop(because: "the connection closed: \(reason)")
                } else {
                    // Media is over (another mode, the room ending); signalling goes on.
                    logger.info("the media connection closed", ["reason": .string(reason)])
                    sender = nil
                    tracks = []
                    dataChannels = nil
                }
            default:
                break
            }
        }
        perform(actions)
        followEstimate()
    }

    /// Sends what the owner queued and runs SCTP's timers.
    func runDataChannels(now: Double) {
        guard let channels = dataChannels else { return }
        let queued = lock.withLock {
            defer { outbox.removeAll() }
            return outbox
        }
        for message in queued { deliver(channels.send(message.payload, reliable: message.reliable, now: now)) }
        deliver(channels.poll(now: now))
    }

    /// Sends a data-channel step's packets and hands the owner its messages.
    func deliver(_ output: ClientDataChannels.Output) {
        for packet in output.packets { link.sendApplicationData(packet) }
        for message in output.received { configuration.onData?(message) }
    }

    func perform(_ actions: [MediaSender.Action]) {
        for action in actions {
            switch action {
            case .sendRTP(let bytes): link.sendRTP(bytes)
            case .sendRTCP(let bytes): link.sendRTCP(bytes)
            case .keyframeRequested(let ssrc):
                // A track for one participant has its own encoder: only it starts again.
                if let publication = directed.values.first(where: { $0.sends(ssrc: ssrc) }) {
                    publication.wantKeyframe(ssrc: ssrc)
                    continue
                }
                // The layer asked for (RFC 4585 §6.3.1 names the media source); a request for
                // an SSRC this publisher no longer sends restarts every layer.
                let asked = videoLayers.filter { $0.ssrc == ssrc }
                for layer in asked.isEmpty ? videoLayers : asked { layer.keyframeWanted = true }
            }
        }
    }

    /// The video target for a REMB estimate (draft-alvestrand-rmcat-remb): the estimate less the
    /// audio and a 10 % margin for headers and retransmissions, never above the configured rate
    /// nor below a tenth of it (a picture must still be a picture). Nil when it differs from the
    /// current target by under 5 %, so a steady estimate does not reconfigure the encoder each
    /// second.
    public static func videoTarget(estimate: UInt64, configured: Int, audioBitrate: Int, current: Int) -> Int? {
        let available = Int(clamping: UInt64(Double(estimate) * 0.9)) - audioBitrate
        let target = min(configured, max(configured / 10, available))
        guard abs(target - current) * 20 > current else { return nil }
        return target
    }

    /// The bounds of the publisher's own (TWCC) estimate, bits per second.
    static let minimumEstimate = 30_000.0
    static let maximumEstimate = 20_000_000.0

    /// Follows the lower of the server's REMB estimate and the publisher's own from the TWCC
    /// feedback (`videoTarget`). Simulcast layers share the target (`SimulcastEncoding.share`):
    /// the configured sum is the most, the top layer gives way first.
    func followEstimate() {
        let estimates = [sender?.statistics.estimatedBitrate, sender?.statistics.transportEstimate].compactMap { $0 }
        guard !videoLayers.isEmpty, let estimate = estimates.min(), estimate != lastEstimate else { return }
        lastEstimate = estimate
        // The camera's rate (`setCamera`'s, or the configured one, or the layers'), which an estimate may only lower.
        let configured = videoLayers.reduce(0) { $0 + $1.bitrate }
        let current = videoLayers.reduce(0) { $0 + $1.encoder.bitrate }
        guard let target = RoomPublisher.videoTarget(estimate: estimate, configured: configured, audioBitrate: audioEncoder?.bitrate ?? 0,
                                                     current: current)
        else { return }
        let shares = (videoLayers.count == 1 ? [target] : SimulcastEncoding.share(target, among: videoLayers.map(\.bitrate))).map { max(10_000, $0) }
        do {
            for (layer, share) in zip(videoLayers, shares) where layer.encoder.bitrate != share { try layer.encoder.setBitrate(share) }
            statistics.videoBitrate = shares.reduce(0, +)
            statistics.bitrateChanges += 1
            logger.info("video bitrate follows the path's estimate",
                        ["remb": .int(Int64(clamping: sender?.statistics.estimatedBitrate ?? 0)),
                         "twcc": .int(Int64(clamping: sender?.statistics.transportEstimate ?? 0)), "target": .int(Int64(target))])
        } catch {
            logger.error("the video bitrate did not change", ["error": .string("\(error)")])
        }
    }

    /// Makes the counters visible to other threads.
    func publish() {
        var current = statistics
        if let sender { current.sender = sender.statistics }
        current.videoLayers = videoLayers.map { layer in
            Statistics.Layer(rid: layer.rid, ssrc: layer.ssrc, width: layer.scaler?.width ?? camera?.format.width ?? 0,
                             height: layer.scaler?.height ?? camera?.format.height ?? 0, bitrate: layer.encoder.bitrate,
                             framesEncoded: layer.encoder.framesEncoded, keyframesEncoded: layer.encoder.keyframesEncoded,
                             bytesSent: current.sender.bytesSentBySSRC[layer.ssrc] ?? 0)
        }
        current.directed = directed.mapValues { publication in
            Statistics.Directed(participantID: publication.participantID, kind: publication.section.kind, mid: publication.section.mid, ssrc: publication.section.ssrc,
                                codec: publication.section.codec.encodingName, isSending: publication.section.isNegotiated,
                                bitrate: publication.bitrate, maxFps: publication.settings.maxFps,
                                framesEncoded: publication.framesEncoded, keyframesEncoded: publication.keyframesEncoded,
                                framesDropped: publication.framesDropped,
                                bytesSent: publication.section.streams.reduce(0) { $0 + (current.sender.bytesSentBySSRC[$1.ssrc] ?? 0) },
                                layers: publication.section.streams.count > 1 ? publication.layerStatistics(bytesSent: current.sender.bytesSentBySSRC) : [])
        }
        lock.lock()
        snapshot = current
        lock.unlock()
    }
}
