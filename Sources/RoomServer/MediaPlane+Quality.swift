import Rooms
import SFU

extension MediaPlane {
    /// Each member of a room's connection quality from its router's statistics: the loss on
    /// their producers' way in, and the loss and round trip their subscriber reports about
    /// what it is sent (the worst of their tracks each). On the RTC loop.
    func connectionQuality(roomID: String) -> [String: ConnectionQuality] {
        guard let router = routers[roomID] else { return [:] }
        var qualities: [String: ConnectionQuality] = [:]
        for (key, member) in members where key.roomID == roomID {
            let uplink = (member.publisher?.producers.values).map { producers in
                producers.compactMap { router.producerFractionLost($0.id) }.max()
            } ?? nil
            let states = (member.subscriber?.subscriptions ?? []).compactMap { router.consumerState($0.consumer.id) }
            let downlink = states.map(\.fractionLost).max()
            let roundTrip = states.compactMap(\.roundTripTime).max()
            qualities[key.participantID] = ConnectionQuality(uplinkLoss: uplink, downlinkLoss: downlink, roundTripTime: roundTrip)
        }
        return qualities
    }
}
