import Foundation
import DataChannel

/// Two associations wired back to back in memory: what one sends, the other receives. Time is
/// the link's own (`now`), advanced by `run(until:)` in small steps while nothing is in flight,
/// so retransmission timers fire on the link's time (other clocks in the process move the one
/// timer wheel too: little, since `scripts/test` runs these tests in a process of their own).
/// Both associations read a clock of the link's own (`SCTPClock.independent()`), so live
/// associations in the same process, on the monotonic clock, never see the link's time as a jump.
final class SCTPTestLink: DrivenLink {
    let client: SCTPAssociation
    let server: SCTPAssociation
    /// The link's clock, in seconds.
    private(set) var now: Double
    /// Events per side, in order.
    private(set) var clientEvents: [DataChannelEvent] = []
    private(set) var serverEvents: [DataChannelEvent] = []
    /// Every packet each side sent, in order (dropped ones too).
    private(set) var clientPackets: [[UInt8]] = []
    private(set) var serverPackets: [[UInt8]] = []
    /// Loses a packet when it returns true; it sees who sent it.
    var drop: (SCTPAssociation.Role, [UInt8]) -> Bool = { _, _ in false }

    private var toServer: [[UInt8]] = []
    private var toClient: [[UInt8]] = []

    init(client clientConfiguration: SCTPConfiguration = SCTPConfiguration(),
         server serverConfiguration: SCTPConfiguration = SCTPConfiguration(), now: Double = 0) throws
    {
        let clock = SCTPClock.independent()
        var clientConfiguration = clientConfiguration
        var serverConfiguration = serverConfiguration
        clientConfiguration.clock = clock
        serverConfiguration.clock = clock
        client = try SCTPAssociation(role: .client, configuration: clientConfiguration)
        server = try SCTPAssociation(role: .server, configuration: serverConfiguration)
        self.now = now
    }

    /// Records a side's actions and queues its packets for the other.
    func collect(_ actions: [SCTPAction], from role: SCTPAssociation.Role) {
        for action in actions {
            switch (action, role) {
            case (.send(let packet), .client):
                clientPackets.append(packet)
                if !drop(.client, packet) { toServer.append(packet) }
            case (.send(let packet), .server):
                serverPackets.append(packet)
                if !drop(.server, packet) { toClient.append(packet) }
            case (.event(let event), .client): clientEvents.append(event)
            case (.event(let event), .server): serverEvents.append(event)
            }
        }
    }

    /// Starts both sides and runs until both are up.
    @discardableResult
    func connect() -> Bool {
        collect(server.start(now: now), from: .server)
        collect(client.start(now: now), from: .client)
        return runAllowingForUsrsctpThreads { self.clientEvents.contains(.associationUp) && self.serverEvents.contains(.associationUp) }
    }

    /// Delivers packets both ways; when none are in flight, advances the clock by `step` and
    /// runs both sides' timers. Stops when `done` is true (returning true) or after `timeout`
    /// seconds of link time (returning false).
    @discardableResult
    func run(timeout: Double = 10, step: Double = SCTPAssociation.timerInterval, until done: () -> Bool) -> Bool {
        let deadline = now + timeout
        while !done() {
            if toServer.isEmpty && toClient.isEmpty {
                guard now < deadline else { return false }
                now += step
                collect(client.handleTimers(now: now), from: .client)
                collect(server.handleTimers(now: now), from: .server)
                // One side's timer call runs the other's timers too (one wheel per process).
                collect(client.takePendingActions(), from: .client)
                continue
            }
            let packets = toServer
            toServer = []
            for packet in packets { collect(server.receive(packet, now: now), from: .server) }
            let replies = toClient
            toClient = []
            for packet in replies { collect(client.receive(packet, now: now), from: .client) }
        }
        return true
    }

    /// Runs until nothing is in flight for `quiet` seconds of link time.
    func settle(quiet: Double = 0.5) {
        let until = now + quiet
        run(timeout: quiet) { self.now >= until }
    }

    func drive(for linkSeconds: Double, until done: () -> Bool) -> Bool { run(timeout: linkSeconds, until: done) }

    func association(_ role: SCTPAssociation.Role) -> SCTPAssociation { role == .client ? client : server }

    func events(_ role: SCTPAssociation.Role) -> [DataChannelEvent] { role == .client ? clientEvents : serverEvents }

    /// Messages a side received on a channel, in order.
    func messages(_ role: SCTPAssociation.Role, on channelID: UInt16) -> [DataChannelPayload] {
        events(role).compactMap { event in
            if case .message(channelID, let payload) = event { return payload }
            return nil
        }
    }

    /// Opens a channel on one side and runs until the other has it.
    func open(from role: SCTPAssociation.Role, label: String, protocol subprotocol: String = "", ordered: Bool = true,
              reliability: DataChannelReliability = .reliable) throws -> DataChannel
    {
        let opened = try association(role).openChannel(label: label, protocol: subprotocol, ordered: ordered,
                                                       reliability: reliability, now: now)
        collect(opened.actions, from: role)
        let peer: SCTPAssociation.Role = role == .client ? .server : .client
        let isOpen = {
            self.events(peer).contains { if case .opened(let channel) = $0 { channel.id == opened.channel.id } else { false } }
                // And the opener has the DATA_CHANNEL_ACK (RFC 8832 §5.2), so it may send at once.
                && self.association(role).channel(opened.channel.id)?.state == .open
        }
        runAllowingForUsrsctpThreads(until: isOpen)
        return opened.channel
    }

    /// Sends a message from one side.
    func send(_ payload: DataChannelPayload, from role: SCTPAssociation.Role, on channelID: UInt16) throws {
        collect(try association(role).send(payload, on: channelID, now: now), from: role)
    }
}
