import Media
import MediaSource
import SDP

/// The signalling half of receiving a room, sans-IO: the server's subscriber offers in (docs/
/// SIGNALING.md, `subscribeOffer`); the answer and which tracks started and stopped out. The
/// recorder (`LiveRoomSource`), the SDK (`MediaReceiver`) and the transcriber answer through
/// it, so they agree on what they answer and on whose tile a track is (`SubscribedTrack`).
///
/// Revue answers as the DTLS client with a full ICE agent (`AnswerBuilder` role `.client`): the
/// server's SFU is ICE-lite. Tracks a participant turned off (`streamDisabled`) stay known but
/// are not started until turned on again.
public struct SubscriberOffers: Sendable {
    /// What an offer's answer changed.
    public struct Answered: Sendable {
        /// The offer as read, for the owner's connection (its ICE and DTLS parameters).
        public var offer: SessionDescription
        /// The answer to send back (`subscribeAnswer`).
        public var sdp: String
        /// Tracks the offer sends now that it did not before (and that are not turned off), by SSRC.
        public var started: [SubscribedTrack]
        /// Tracks it no longer sends, by SSRC.
        public var stopped: [SubscribedTrack]
    }

    /// What the last answered offer sends, by SSRC.
    public private(set) var tracks: [UInt32: SubscribedTrack] = [:]
    /// Offers answered so far.
    public private(set) var answered = 0
    /// Participants' kinds turned off, as "participant/kind".
    private var disabled = Set<String>()
    private let sessionID: UInt64
    private var sessionVersion: UInt64 = 1

    public init(sessionID: UInt64 = .random(in: 1...UInt64(Int64.max))) {
        self.sessionID = sessionID
    }

    /// Answers an offer with what Revue decodes. `connect` is the owner's chance to point its
    /// connection at the offer (it may throw: then nothing changes, and the error comes out).
    public mutating func answer(_ sdp: String, transport: TransportParameters,
                                connect: (SessionDescription) throws -> Void) throws -> Answered
    {
        let offer = try SessionDescription(parsing: sdp)
        var builder = AnswerBuilder(transport: transport, sessionID: sessionID, sessionVersion: sessionVersion)
        builder.role = .client
        sessionVersion += 1
        let answer = try builder.answer(to: offer)
        try connect(offer)
        let now = SubscribedTrack.tracks(in: answer.negotiation)
        let stopped = tracks.keys.sorted().filter { now[$0] == nil }.compactMap { tracks[$0] }
        let started = now.keys.sorted().filter { tracks[$0] == nil }.compactMap { now[$0] }.filter { !isDisabled($0) }
        tracks = now
        answered += 1
        return Answered(offer: offer, sdp: answer.description.serialize(), started: started, stopped: stopped)
    }

    /// A participant left: their tracks, which stop.
    public mutating func participantLeft(_ participantID: String) -> [SubscribedTrack] {
        let gone = tracks.keys.sorted().filter { tracks[$0]?.participantID == participantID }.compactMap { tracks[$0] }
        for track in gone { tracks[track.track.ssrc] = nil }
        for kind in TrackKind.allCases { disabled.remove(Self.key(participantID, kind)) }
        return gone
    }

    /// A participant turned a kind of track off (`streamDisabled`): the tracks that stop.
    public mutating func disable(participantID: String, kind: TrackKind) -> [SubscribedTrack] {
        disabled.insert(Self.key(participantID, kind))
        return tracks(of: participantID, kind: kind)
    }

    /// A participant turned a kind of track on again (`streamEnabled`): the tracks that start
    /// (none unless it was off).
    public mutating func enable(participantID: String, kind: TrackKind) -> [SubscribedTrack] {
        guard disabled.remove(Self.key(participantID, kind)) != nil else { return [] }
        return tracks(of: participantID, kind: kind)
    }

    /// The connection is gone (a rejoin, a closed connection): every track stops, and the next
    /// offer starts afresh.
    public mutating func reset() -> [SubscribedTrack] {
        let gone = tracks.keys.sorted().compactMap { tracks[$0] }
        tracks = [:]
        return gone
    }

    private func tracks(of participantID: String, kind: TrackKind) -> [SubscribedTrack] {
        tracks.keys.sorted().compactMap { tracks[$0] }.filter { $0.participantID == participantID && $0.track.kind == kind }
    }

    private func isDisabled(_ track: SubscribedTrack) -> Bool {
        disabled.contains(Self.key(track.participantID, track.track.kind))
    }

    private static func key(_ participantID: String, _ kind: TrackKind) -> String { "\(participantID)/\(kind.rawValue)" }
}
