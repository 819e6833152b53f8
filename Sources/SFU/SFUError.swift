/// Why the router refused a call (a producer or consumer it does not know, parameters it
/// cannot work with). Packets from the network never throw: bad ones are dropped and counted.
public struct SFUError: Error, Sendable, Equatable, CustomStringConvertible {
    enum Code: Sendable, Equatable {
        case unknownProducer(ProducerID)
        case unknownConsumer(ConsumerID)
        case invalidParameters(String)
        case ssrcInUse(UInt32)
    }

    let code: Code

    init(_ code: Code) {
        self.code = code
    }

    public var description: String {
        switch code {
        case .unknownProducer(let id): "no \(id) in this router"
        case .unknownConsumer(let id): "no \(id) in this router"
        case .invalidParameters(let why): "invalid parameters: \(why)"
        case .ssrcInUse(let ssrc): "SSRC \(ssrc) is already used in this router"
        }
    }
}
