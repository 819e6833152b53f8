import Decode
import Foundation
import Ingest
import Log
import Media
import MediaSource
import Signaling
import Speech
import Subscriber

/// Live transcription of a room: each participant's own audio track, not the mix, cut into
/// utterances and sent to the speech engine; each result goes to everyone as a
/// `TranscriptionLine` with the speaker's id and name. Overlapping speakers are separate
/// streams.
///
/// Two threads: the caller's receives and decodes (as the recorder does, through `Subscriber`),
/// and one engine thread transcribes utterances in order from a bounded queue (a flood of
/// utterances drops the oldest, with a warning, never unbounded memory). Lines go out on the
/// caller's thread.
public final class LiveTranscriber {
    public static let maximumQueued = 16
    private let logger: Logger
    private let receiver = SubscriberSession(e2ee: E2EEGate(keys: nil, logger: Logger(label: "transcriber")))
    private var decoders: [UInt32: AudioTrackDecoder] = [:]
    private var trackOwners: [UInt32: String] = [:]
    private var speakers: [String: SpeakerStream] = [:]
    /// When each speaker's latest audio arrived (the source clock) and where it ends (media time).
    private var lastHeard: [String: (arrival: Double, mediaEnd: Double)] = [:]
    /// The source clock: the latest time seen.
    private var now = 0.0
    private var names: [String: String] = [:]
    private let queue: UtteranceQueue
    /// Seconds since 1970 minus the source clock: the room's clock from the session's.
    private var wallOffset: Double?
    public private(set) var linesSent = 0
    public private(set) var utterancesDropped = 0

    public init(engine: any SpeechEngine, logger: Logger = Logger(label: "transcriber")) {
        self.logger = logger
        queue = UtteranceQueue(engine: engine, capacity: Self.maximumQueued, logger: logger)
    }

    /// Transcribes the source's room until it ends or `shouldStop`; `send` gets each line.
    /// `wallClockAtZero`: the wall clock at the source clock's 0 (a live room's); without it,
    /// the wall clock is taken at the first datagram, late by however long it waited.
    public func run(_ source: any MediaSource, wallClockAtZero: Date? = nil, send: (TranscriptionLine) -> Void, shouldStop: () -> Bool) {
        wallOffset = wallClockAtZero?.timeIntervalSince1970
        queue.start()
        for participant in source.participants { handle(.join(participant), at: 0, source: source) }
        loop: while !shouldStop() {
            switch source.next(until: now + 0.1) {
            case .datagram(let bytes, let arrival):
                now = max(now, arrival)
                if wallOffset == nil { wallOffset = Date().timeIntervalSince1970 - arrival }
                handle(receiver.receive(bytes, arrival: arrival), source: source)
            case .event(let event, let time):
                now = max(now, time)
                handle(event, at: time, source: source)
            case .idle(let time):
                now = max(now, time)
                handle(receiver.poll(at: time), source: source)
            case .caption, .captionsExpected:
                break  // another transcriber's line (the server lets one run per room)
            case .ended:
                break loop
            }
            endQuietSpeakers()
            for line in queue.takeLines() {
                send(line)
                linesSent += 1
            }
        }
        // What was being said when the job stopped is still transcribed and sent.
        for id in speakers.keys { enqueue(speakers[id]?.flush() ?? [], participantID: id) }
        queue.finish(timeout: 30)
        for line in queue.takeLines() {
            send(line)
            linesSent += 1
        }
    }

    // MARK: - Receiving

    private func handle(_ received: RoomEvent, at time: Double, source: any MediaSource) {
        // The one E2EE rule every receiver follows: an encrypted participant this transcriber
        // has no key for joins with no tracks, so their sealed frames never reach a decoder
        // (decoded, they would be noise, and an engine can hear words in noise).
        guard let event = receiver.e2ee.admit(received) else { return }
        switch event {
        case .join(let participant):
            names[participant.id] = participant.name
            for track in participant.tracks { startReceiving(track, of: participant.id, at: time, source: source) }
        case .leave(let id):
            for (ssrc, owner) in trackOwners where owner == id { stopReceiving(ssrc, at: time, source: source) }
            enqueue(speakers[id]?.flush() ?? [], participantID: id)
            speakers[id] = nil
            lastHeard[id] = nil
        case .publish(let id, let track):
            startReceiving(track, of: id, at: time, source: source)
        case .unpublish(let id, let ssrc):
            stopReceiving(ssrc, at: time, source: source)
            enqueue(speakers[id]?.flush() ?? [], participantID: id)
        case .rename(let id, let name):
            names[id] = name
            speakers[id]?.name = name
        case .pin, .unpin, .activeSpeaker:
            break
        }
    }

    /// Audio only: video tracks are not decoded (the server may still send them).
    private func startReceiving(_ track: TrackDescription, of participantID: String, at time: Double, source: any MediaSource) {
        guard !track.kind.isVideo, decoders[track.ssrc] == nil else { return }
        do {
            decoders[track.ssrc] = try AudioTrackDecoder(channels: track.channels)
            trackOwners[track.ssrc] = participantID
            handle(receiver.add(TrackInfo(track, participantID: participantID), at: time), source: source)
        } catch {
            logger.error("cannot decode a participant's audio; it is not transcribed", ["participantId": .string(participantID), "error": .string("\(error)")])
        }
    }

    private func stopReceiving(_ ssrc: UInt32, at time: Double, source: any MediaSource) {
        guard decoders[ssrc] != nil else { return }
        handle(receiver.remove(ssrc: ssrc, at: time), source: source)
        decoders[ssrc] = nil
        trackOwners[ssrc] = nil
    }

    private func handle(_ outputs: [SubscriberOutput], source: any MediaSource) {
        for output in outputs {
            switch output {
            case .frame(let frame):
                guard let decoder = decoders[frame.track.ssrc], let owner = trackOwners[frame.track.ssrc] else { continue }
                for chunk in decoder.decode(frame) {
                    var stream = speakers[owner] ?? SpeakerStream(participantID: owner, name: names[owner] ?? owner)
                    let utterances = stream.add(chunk)
                    speakers[owner] = stream
                    if let end = stream.expected { lastHeard[owner] = (now, end) }
                    enqueue(utterances, participantID: owner)
                }
            case .feedback(let feedback):
                source.send(feedback)
            case .participantLeft(let id, let time):
                handle(.leave(participantID: id), at: time, source: source)
            case .undecryptable:
                break
            }
        }
    }

    /// A speaker whose audio stopped coming mid-sentence (DTX, muted, a lost connection) is
    /// silent from then: their utterance ends as it would with silence sent, without waiting
    /// for their next packet.
    /// Quiet is judged on the arrival clock (nothing has come from them for 0.3 s), not by
    /// comparing arrival with media time, which differ by however much more than their least
    /// delay their packets now take: a burst of held-up audio is not quiet, and a speaker whose
    /// delay grew is not quiet between every two packets.
    private func endQuietSpeakers() {
        for (id, stream) in speakers where stream.isSpeaking {
            guard let heard = lastHeard[id], now - heard.arrival > 0.3 else { continue }
            enqueue(speakers[id]?.advance(to: heard.mediaEnd + (now - heard.arrival) - 0.2) ?? [], participantID: id)
        }
    }

    // MARK: - To the engine

    private func enqueue(_ utterances: [Utterance], participantID: String) {
        guard !utterances.isEmpty, let wallOffset else { return }
        let name = names[participantID] ?? participantID
        let senderOffset = receiver.clock.senderTime(participant: participantID, mediaTime: 0)
        let dropped = queue.add(utterances.map {
            UtteranceQueue.Job(utterance: $0, participantID: participantID, name: name, wallOffset: wallOffset, senderOffset: senderOffset)
        })
        if dropped > 0 {
            utterancesDropped += dropped
            logger.warning("the speech engine is behind; the oldest utterances were dropped", ["dropped": .of(dropped)])
        }
    }
}
