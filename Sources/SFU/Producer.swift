import Media

/// A published track: its parameters, its streams (one per simulcast layer) and its consumers.
final class Producer {
    let id: ProducerID
    let parameters: ProducerParameters
    let streams: [ProducerStream]
    let cname: String
    var consumers: [Consumer] = []
    /// Audio levels of the current speaker window (sum of dBov and packet count).
    var levelSum: Double = 0
    var levelCount = 0

    init(id: ProducerID, parameters: ProducerParameters, configuration: RouterConfiguration) {
        self.id = id
        self.parameters = parameters
        cname = parameters.cname ?? parameters.participant.rawValue
        let layers = parameters.layers.isEmpty ? [SimulcastLayer()] : parameters.layers
        streams = layers.enumerated().map { index, layer in
            ProducerStream(layer: index, parameters: layer, kind: parameters.kind, clockRate: parameters.clockRate,
                           configuration: configuration)
        }
    }

    var kind: TrackKind { parameters.kind }
    var extensions: HeaderExtensionIDs { parameters.extensions }

    /// The stream a media packet belongs to: by SSRC, else by its RID (learning the SSRC), else
    /// the only stream (a new SSRC there is a restart).
    @inline(__always)
    func mediaStream(ssrc: UInt32, packet: UnsafeBufferPointer<UInt8>, elements: [ExtensionElement]) -> ProducerStream? {
        for stream in streams where stream.ssrc == ssrc { return stream }
        if let element = elements.find(extensions.rid), let stream = streams.first(where: { $0.matchesRID(packet, element) }) {
            stream.adopt(ssrc: ssrc)
            return stream
        }
        if streams.count == 1, streams[0].rtxSSRC != ssrc {
            streams[0].adopt(ssrc: ssrc)
            return streams[0]
        }
        return nil
    }

    /// The stream an RTX packet repairs: by RTX SSRC, else by repaired-rtp-stream-id, else the
    /// only stream.
    func repairedStream(ssrc: UInt32, packet: UnsafeBufferPointer<UInt8>, elements: [ExtensionElement]) -> ProducerStream? {
        for stream in streams where stream.rtxSSRC == ssrc { return stream }
        if let element = elements.find(extensions.repairedRID), let stream = streams.first(where: { $0.matchesRID(packet, element) }) {
            stream.rtxSSRC = ssrc
            return stream
        }
        if streams.count == 1, streams[0].ssrc != ssrc {
            streams[0].rtxSSRC = ssrc
            return streams[0]
        }
        return nil
    }

    func stream(ssrc: UInt32) -> ProducerStream? {
        streams.first { $0.ssrc == ssrc }
    }
}
