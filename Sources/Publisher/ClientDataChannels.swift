import DataChannel
import JobSpec

/// A client's two data channels on its publisher connection, as the join page opens them
/// (docs/SIGNALING.md): `revue` (reliable, ordered) and `revue-unreliable` (unordered, no
/// retransmissions), over SCTP over the connection's DTLS (RFC 8261), opened with DCEP
/// (RFC 8832). The server relays each message to everyone else as `{"from": id, "text": …}`.
/// Bytes in, packets out, time injected; the publisher's media thread owns it.
final class ClientDataChannels {
    static let reliableLabel = "revue"
    static let unreliableLabel = "revue-unreliable"
    /// Messages sent before the channels open wait, up to this many.
    static let maximumWaiting = 64

    /// What a step produced: SCTP packets for DTLS, and the messages that came in.
    struct Output {
        var packets: [[UInt8]] = []
        var received: [DataMessage] = []
    }

    private let association: SCTPAssociation
    /// The channels open now, by label.
    private var open: [String: UInt16] = [:]
    private var waiting: [(payload: DataChannelPayload, reliable: Bool)] = []

    init() throws {
        var configuration = SCTPConfiguration()
        // The server's limit is 15.5 KiB; the SDK refuses more than 15 KiB before it gets here.
        configuration.maxMessageSize = 16 * 1024
        association = try SCTPAssociation(role: .client, configuration: configuration)
    }

    /// Starts the association and asks for both channels (DATA_CHANNEL_OPEN goes once it is up).
    func start(now: Double) -> Output {
        var actions = association.start(now: now)
        if let made = try? association.openChannel(label: Self.reliableLabel, now: now) { actions += made.actions }
        if let made = try? association.openChannel(label: Self.unreliableLabel, ordered: false, reliability: .maxRetransmits(0), now: now) {
            actions += made.actions
        }
        return handle(actions, now: now)
    }

    /// DTLS application data from the server: an SCTP packet.
    func receive(_ packet: [UInt8], now: Double) -> Output {
        handle(association.receive(packet, now: now), now: now)
    }

    /// Retransmissions and the association's other timers.
    func poll(now: Double) -> Output {
        handle(association.handleTimers(now: now), now: now)
    }

    /// Sends on the reliable or the unreliable channel; waits for it to open first.
    func send(_ payload: DataChannelPayload, reliable: Bool, now: Double) -> Output {
        let label = reliable ? Self.reliableLabel : Self.unreliableLabel
        guard let channel = open[label] else {
            if waiting.count < Self.maximumWaiting { waiting.append((payload, reliable)) }
            return Output()
        }
        guard let actions = try? association.send(payload, on: channel, now: now) else { return Output() }
        return handle(actions, now: now)
    }

    /// Closes the association; the packets that say so (an ABORT) for DTLS.
    func close() -> [[UInt8]] {
        var packets: [[UInt8]] = []
        for case .send(let packet) in association.close() { packets.append(packet) }
        return packets
    }

    private func handle(_ actions: [SCTPAction], now: Double) -> Output {
        var output = Output()
        var opened = false
        for action in actions {
            switch action {
            case .send(let packet):
                output.packets.append(packet)
            case .event(.opened(let channel)):
                open[channel.label] = channel.id
                opened = true
            case .event(.closed(let id)):
                open = open.filter { $0.value != id }
            case .event(.message(let channelID, let payload)):
                let label = open.first { $0.value == channelID }?.key
                output.received.append(DataMessage(relayed: payload, reliable: label != Self.unreliableLabel))
            case .event:
                break
            }
        }
        if opened, !waiting.isEmpty {
            let held = waiting
            waiting = []
            for message in held {
                let more = send(message.payload, reliable: message.reliable, now: now)
                output.packets += more.packets
                output.received += more.received
            }
        }
        return output
    }
}
