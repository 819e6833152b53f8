/// Simulcast layer choice: each consumer of a simulcast producer gets the highest active layer
/// up to its preference that its subscriber's budget (REMB, held down after heavy loss) allows.
extension Router {
    /// Shares the subscriber's budget out. What cannot adapt (audio, single-layer video) is paid
    /// first; then every simulcast consumer gets its lowest active layer, and consumers move up
    /// one layer at a time, screen share first, while the budget lasts. Moving down happens at
    /// once; moving up waits `layerUpgradeDelay` (unless `immediate`), so a noisy estimate does
    /// not make layers flap.
    func chooseLayers(for subscriber: SubscriberPeer, now: Double, immediate: Bool = false) {
        var budget = subscriber.budget(now: now)
        var adaptive: [Consumer] = []
        for consumer in subscriber.consumers where !consumer.paused {
            if consumer.producer.streams.count > 1 {
                adaptive.append(consumer)
            } else {
                budget -= consumer.producer.streams[0].bitrate.bitrate
            }
        }
        guard !adaptive.isEmpty else { return }
        adaptive.sort { lhs, rhs in
            let left = lhs.producer.kind == .share ? 0 : 1
            let right = rhs.producer.kind == .share ? 0 : 1
            return left != right ? left < right : lhs.id < rhs.id
        }
        let timeout = configuration.layerInactivityTimeout
        var chosen: [Int] = []
        var ceilings: [Int] = []
        for consumer in adaptive {
            let streams = consumer.producer.streams
            let preferred = consumer.preferred.layer(of: streams.count)
            ceilings.append(preferred)
            if let lowest = (0...preferred).first(where: { streams[$0].isActive(now: now, timeout: timeout) }) {
                chosen.append(lowest)
                budget -= streams[lowest].bitrate.bitrate
            } else {
                // Nothing flows yet: aim at the preference, which is what will start first.
                chosen.append(preferred)
            }
        }
        var moved = true
        while moved {
            moved = false
            for (index, consumer) in adaptive.enumerated() where chosen[index] < ceilings[index] {
                let streams = consumer.producer.streams
                guard streams[chosen[index]].isActive(now: now, timeout: timeout),
                      let next = (chosen[index] + 1...ceilings[index]).first(where: { streams[$0].isActive(now: now, timeout: timeout) })
                else { continue }
                let extra = streams[next].bitrate.bitrate - streams[chosen[index]].bitrate.bitrate
                guard extra <= budget else { continue }
                budget -= extra
                chosen[index] = next
                moved = true
            }
        }
        for (index, consumer) in adaptive.enumerated() { setTarget(consumer, layer: chosen[index], now: now, immediate: immediate) }
    }

    /// What the subscriber's consumers are being sent, bits per second.
    func sendingRate(of subscriber: SubscriberPeer, now: Double) -> Double {
        subscriber.consumers.reduce(0) { total, consumer in
            let layer = consumer.currentLayer ?? consumer.targetLayer
            return total + consumer.producer.streams[layer].bitrate.bitrate
        }
    }

    private func setTarget(_ consumer: Consumer, layer: Int, now: Double, immediate: Bool) {
        guard layer != consumer.targetLayer else {
            consumer.upgradeLayer = nil
            return
        }
        if layer > consumer.targetLayer, !immediate {
            if consumer.upgradeLayer != layer {
                consumer.upgradeLayer = layer
                consumer.upgradeSince = now
                return
            }
            guard now - consumer.upgradeSince >= configuration.layerUpgradeDelay else { return }
        }
        consumer.upgradeLayer = nil
        consumer.targetLayer = layer
        if consumer.producer.kind.isVideo, consumer.currentLayer != layer {
            wantKeyframe(consumer.producer.streams[layer], fir: false, now: now)
        }
    }
}
