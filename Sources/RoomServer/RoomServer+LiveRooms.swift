import Foundation
import HTTP
import JobSpec
import Jobs
import Log
import Net
import Postgres
import Cluster
import Rooms
import SDP
import Signaling
import Synchronization
import Translation
import Transport
import WebSocket

/// What the REST API asks of the rooms live on this node: end one, remove a participant,
/// metrics, who is in a room.
extension RoomServer: LiveRooms {
    public func end(roomID: String, reason: LeaveReason) -> String? {
        let ended = try? rtc.loop.sync { [self] () -> String? in
            let session = registry.liveSessionID(roomID: roomID)
            guard session != nil else { return nil }
            perform(registry.endRoom(roomID: roomID, reason: reason, now: Date().timeIntervalSince1970))
            return session
        }
        // The rows are written before the API reads them back (the protocol's promise).
        persistence.drain()
        return ended ?? nil
    }

    public func remove(participantID: String, roomID: String, reason: LeaveReason) -> Bool {
        let removed = (try? rtc.loop.sync { [self] in
            guard registry.activeParticipants(roomID: roomID).contains(where: { $0.participantID == participantID }) else { return false }
            perform(registry.removeParticipant(participantID: participantID, roomID: roomID, reason: reason, now: Date().timeIntervalSince1970))
            return true
        }) ?? false
        persistence.drain()
        return removed
    }

    public func liveRoomIDs() -> [String] {
        (try? rtc.loop.sync { [self] in registry.liveRoomIDs }) ?? []
    }

    public func connectionQuality(roomID: String) -> [String: ConnectionQuality] {
        (try? rtc.loop.sync { [self] in media.connectionQuality(roomID: roomID) }) ?? [:]
    }

    /// Prometheus text (https://prometheus.io/docs/instrumenting/exposition_formats/): rooms,
    /// participants, connections, packets, bytes, NACKs and keyframe requests.
    public func metricLines() -> [String] {
        guard let snapshot = try? rtc.loop.sync({ [self] in
            (registry.liveRoomIDs.count, registry.liveRoomIDs.reduce(0) { $0 + registry.activeParticipants(roomID: $1).count },
             media.counts, media.routerTotals)
        }) else { return [] }
        let (rooms, participants, counts, totals) = snapshot
        let transport = rtc.statistics
        func metric(_ name: String, _ kind: String, _ help: String, _ value: some Numeric) -> [String] {
            ["# HELP \(name) \(help)", "# TYPE \(name) \(kind)", "\(name) \(value)"]
        }
        return metric("revue_rooms_live", "gauge", "Rooms with a live session.", rooms)
            + metric("revue_room_participants", "gauge", "Participants in live rooms.", participants)
            + metric("revue_signalling_connections", "gauge", "Open signalling WebSockets.", gateway.count)
            + metric("revue_rtc_connections", "gauge", "WebRTC connections (publisher and subscriber) on the media port.", transport.connections)
            + metric("revue_rtc_producers", "gauge", "Tracks published into rooms.", counts.producers)
            + metric("revue_rtc_consumers", "gauge", "Tracks forwarded to subscribers.", counts.consumers)
            + metric("revue_rtc_datagrams_received_total", "counter", "UDP datagrams received on the media port.", transport.datagramsIn)
            + metric("revue_rtc_datagrams_sent_total", "counter", "UDP datagrams sent from the media port.", transport.datagramsOut)
            + metric("revue_rtc_bytes_received_total", "counter", "Bytes received on the media port.", transport.bytesIn)
            + metric("revue_rtc_bytes_sent_total", "counter", "Bytes sent from the media port.", transport.bytesOut)
            + metric("revue_rtc_unrouted_datagrams_total", "counter", "Datagrams that belonged to no connection.", transport.unrouted)
            + metric("revue_rtc_stun_blocked_total", "counter", "STUN dropped unread from sources that kept failing checks.", transport.stunBlocked)
            + metric("revue_rtc_stun_sources_blocked_total", "counter", "Sources blocked for failing ICE checks.", transport.stunSourcesBlocked)
            + metric("revue_sfu_packets_forwarded_total", "counter", "RTP packets the SFU sent to subscribers.", totals.packetsSent)
            + metric("revue_sfu_packets_dropped_total", "counter", "RTP packets the SFU could not use.", totals.packetsDropped)
            + metric("revue_sfu_nacks_received_total", "counter", "NACKs subscribers sent.", totals.nacksReceived)
            + metric("revue_sfu_nacks_sent_total", "counter", "NACKs the SFU sent publishers.", totals.nacksSent)
            + metric("revue_sfu_retransmissions_total", "counter", "Packets resent from the SFU's cache.", totals.retransmissionsSent)
            + metric("revue_sfu_plis_received_total", "counter", "Keyframe requests (PLI/FIR) subscribers sent.", totals.keyframeRequestsReceived)
            + metric("revue_sfu_plis_sent_total", "counter", "Keyframe requests the SFU sent publishers.", totals.keyframeRequestsSent)
            + clusterMetricLines()
    }

    /// The id of the room's ongoing session, the one a recording started now belongs to.
    public func liveSessionID(roomID: String) -> String? {
        (try? rtc.loop.sync { [self] in registry.liveSessionID(roomID: roomID) }) ?? nil
    }

    public func activeParticipants(roomID: String) -> [LiveParticipant]? {
        try? rtc.loop.sync { [self] in registry.liveSessionID(roomID: roomID) == nil ? nil : registry.activeParticipants(roomID: roomID) }
    }
}
