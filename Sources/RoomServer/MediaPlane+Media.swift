import DTLS
import DataChannel
import Foundation
import ICE
import JobSpec
import Log
import Net
import Rooms
import SDP
import SFU
import Signaling
import Transport

/// Media from the transport into the router and out again, and the data channels relayed.
extension MediaPlane {
    // MARK: - Media from the transport

    func rtp(_ packet: [UInt8], from connection: ServerPeerConnection.ID) {
        guard let peer = peerOfConnection[connection], let owner = owners[peer], let router = routers[owner.key.roomID] else { return }
        output.removeAll()
        router.receiveRTP(packet, fromPeer: peer, now: EventLoop.now(), into: &output)
        send(output, roomID: owner.key.roomID)
    }

    func rtcp(_ packet: [UInt8], from connection: ServerPeerConnection.ID) {
        guard let peer = peerOfConnection[connection], let owner = owners[peer], let router = routers[owner.key.roomID] else { return }
        deliver(router.receiveRTCP(packet, fromPeer: peer, now: EventLoop.now()), roomID: owner.key.roomID)
    }

    func send(_ output: RouterOutput, roomID: String) {
        for packet in output.packets {
            guard let connection = connectionOfPeer[packet.peer] else { continue }
            let bytes = Array(output.bytes(of: packet))
            switch packet.kind {
            case .rtp: rtc.sendRTP(bytes, to: connection)
            case .rtcp: rtc.sendRTCP(bytes, to: connection)
            }
        }
        for event in output.events {
            switch event {
            case .keyframeRequested: break
            case .activeSpeakerChanged(let participant): stateChanged(roomID, participant?.rawValue ?? "", .activeSpeaker(participant?.rawValue))
            }
        }
    }

    func deliver(_ actions: [RouterAction], roomID: String) {
        for action in actions { handle(action, roomID: roomID) }
    }

    func handle(_ action: RouterAction, roomID: String) {
        switch action {
        case .sendRTP(let peer, let bytes):
            if let connection = connectionOfPeer[peer] { rtc.sendRTP(bytes, to: connection) }
        case .sendRTCP(let peer, let bytes):
            if let connection = connectionOfPeer[peer] { rtc.sendRTCP(bytes, to: connection) }
        case .keyframeRequested:
            break
        case .activeSpeakerChanged(let participant):
            stateChanged(roomID, participant?.rawValue ?? "", .activeSpeaker(participant?.rawValue))
        }
    }

    func connectionChanged(_ connection: ServerPeerConnection.ID, _ state: ServerPeerConnection.State) {
        guard let peer = peerOfConnection[connection], let owner = owners[peer], let member = members[owner.key] else { return }
        switch state {
        case .connected:
            logger.info("connected", ["participantId": .string(owner.key.participantID), "connection": .string(owner.publisher ? "publisher" : "subscriber")])
            if owner.publisher, let publisher = member.publisher, publisher.sctp == nil {
                startDataChannels(publisher, connection: connection)
            }
            // The keyframe asked for when the subscription began may have gone before the
            // subscriber could decrypt it: ask again now that it can.
            if !owner.publisher, let subscriber = member.subscriber, let router = routers[owner.key.roomID] {
                for subscription in subscriber.subscriptions where subscription.kind != .audio {
                    try? router.requestKeyframe(consumer: subscription.consumer.id, now: EventLoop.now())
                }
            }
        case .closed(let reason):
            logger.info("connection ended", ["participantId": .string(owner.key.participantID), "reason": .string(reason)])
            connectionOfPeer[peer] = nil
            peerOfConnection[connection] = nil
            stateChanged(owner.key.roomID, owner.key.participantID, .connectionLost)
        default:
            break
        }
    }

    // MARK: - Data channels

    func startDataChannels(_ publisher: Publisher, connection: ServerPeerConnection.ID) {
        var configuration = SCTPConfiguration()
        configuration.maxMessageSize = MediaPlane.maxDataMessage
        guard let association = try? SCTPAssociation(role: .server, configuration: configuration) else { return }
        publisher.sctp = association
        perform(association.start(now: EventLoop.now()), on: publisher, connection: connection)
    }

    func applicationData(_ bytes: [UInt8], from connection: ServerPeerConnection.ID) {
        guard let peer = peerOfConnection[connection], let owner = owners[peer], owner.publisher,
              let publisher = members[owner.key]?.publisher, let association = publisher.sctp
        else { return }
        perform(association.receive(bytes, now: EventLoop.now()), on: publisher, connection: connection)
    }

    func perform(_ actions: [SCTPAction], on publisher: Publisher, connection: ServerPeerConnection.ID) {
        for action in actions {
            switch action {
            case .send(let packet):
                rtc.sendApplicationData(packet, to: connection)
            case .event(.opened(let channel)):
                publisher.channels[channel.label] = channel.id
                if channel.label == MediaPlane.reliableChannel, let member = members.values.first(where: { $0.publisher === publisher }) {
                    let held = member.heldMessages
                    member.heldMessages = []
                    member.heldBytes = 0
                    member.heldOverflowed = false
                    let now = EventLoop.now()
                    for message in held where now - message.at <= MediaPlane.heldMessageLifetime {
                        deliver(message.text, on: channel.label, to: publisher)
                    }
                }
            case .event(.closed(let id)):
                publisher.channels = publisher.channels.filter { $0.value != id }
            case .event(.message(let channelID, let payload)):
                relay(payload, channelID: channelID, from: publisher)
            case .event:
                break
            }
        }
    }

    /// A participant's `send()`: to everyone else in the room on the channel of the same label,
    /// with the sender's id, as `{"from": ID, "text": TEXT}`.
    func relay(_ payload: DataChannelPayload, channelID: UInt16, from sender: Publisher) {
        guard let senderMember = members.values.first(where: { $0.publisher === sender }),
              let label = sender.channels.first(where: { $0.value == channelID })?.key
        else { return }
        let text: String
        switch payload {
        case .text(let value): text = (try? JSONValue(parsing: Array(value.utf8)))?["text"]?.stringValue ?? value
        case .binary(let value): text = String(decoding: value, as: UTF8.self)
        }
        let message = JSONValue.object(["from": .string(senderMember.key.participantID), "text": .string(text)]).text
        for member in members.values where member.key.roomID == senderMember.key.roomID && member.key != senderMember.key {
            if let publisher = member.publisher, publisher.channels[label] != nil {
                deliver(message, on: label, to: publisher)
            } else if label == MediaPlane.reliableChannel, member.mode != .signallingOnly, !member.isWHIP {
                // Joined, still connecting: hold the message until the channel opens. A
                // SIGNALLING_ONLY member has no media connection and a WHIP publisher no data
                // channels, so nothing is held for them.
                if member.heldMessages.count < MediaPlane.maxHeldMessages, member.heldBytes + message.utf8.count <= MediaPlane.maxHeldBytes {
                    member.heldMessages.append((message, EventLoop.now()))
                    member.heldBytes += message.utf8.count
                } else if !member.heldOverflowed {
                    member.heldOverflowed = true
                    logger.warning("data channel messages dropped: the channel has not opened",
                                   ["participantId": .string(member.key.participantID), "held": .int(Int64(member.heldMessages.count))])
                }
            }
        }
    }

    func deliver(_ message: String, on label: String, to publisher: Publisher) {
        guard let association = publisher.sctp, let channel = publisher.channels[label], let connection = publisher.connection
        else { return }
        if let actions = try? association.send(.text(message), on: channel, now: EventLoop.now()) {
            perform(actions, on: publisher, connection: connection)
        }
    }
}
