import DataChannel
import Platform
import Testing

extension SCTPTests {
    /// Two associations in memory, feeding each other's packets.
    @Suite struct AssociationTests {
        @Test func associationComesUpBothSides() throws {
            let link = try SCTPTestLink()
            #expect(link.client.state == .idle)
            #expect(link.connect())
            #expect(link.client.state == .established)
            #expect(link.server.state == .established)
            // INIT, INIT ACK, COOKIE ECHO, COOKIE ACK (RFC 9260 §5.1): chunk type after the
            // 12-byte common header.
            #expect(link.clientPackets.first.map { $0[12] } == 0x01)
            #expect(link.serverPackets.first.map { $0[12] } == 0x02)
            #expect(link.clientPackets.first.map { Array($0[0..<4]) } == [0x13, 0x88, 0x13, 0x88], "port 5000 to 5000")
        }

        @Test func channelsOpenFromEachSideWithTheirParity() throws {
            let link = try SCTPTestLink()
            link.connect()
            let chat = try link.open(from: .client, label: "chat", protocol: "revue-chat")
            let control = try link.open(from: .server, label: "control", ordered: false, reliability: .maxRetransmits(0))
            #expect(chat.id == 0)
            #expect(control.id == 1)
            let atServer = link.server.channel(0)
            #expect(atServer?.label == "chat")
            #expect(atServer?.protocol == "revue-chat")
            #expect(atServer?.ordered == true)
            #expect(atServer?.state == .open)
            let atClient = link.client.channel(1)
            #expect(atClient?.label == "control")
            #expect(atClient?.ordered == false)
            #expect(atClient?.maxRetransmits == 0)
            #expect(atClient?.maxPacketLifeTime == nil)
            #expect(link.clientEvents.filter { if case .opened = $0 { true } else { false } }.count == 2)
            // The next ids keep the parity.
            #expect(try link.open(from: .client, label: "second").id == 2)
            #expect(try link.open(from: .server, label: "second").id == 3)
        }

        @Test(arguments: [1, 15 * 1024, 64 * 1024])
        func textAndBinaryMessagesArriveWhole(size: Int) throws {
            let link = try SCTPTestLink()
            link.connect()
            let channel = try link.open(from: .client, label: "data")
            let text = String(repeating: "é", count: size / 2) + (size % 2 == 1 ? "x" : "")
            let binary = (0..<size).map { UInt8(truncatingIfNeeded: $0 * 7) }
            try link.send(.text(text), from: .client, on: channel.id)
            try link.send(.binary(binary), from: .client, on: channel.id)
            try link.send(.binary(binary.reversed()), from: .server, on: channel.id)
            #expect(link.run { link.messages(.server, on: channel.id).count == 2 && link.messages(.client, on: channel.id).count == 1 })
            #expect(text.utf8.count == size)
            #expect(link.messages(.server, on: channel.id) == [.text(text), .binary(binary)])
            #expect(link.messages(.client, on: channel.id) == [.binary(binary.reversed())])
            // Every packet fits the configured MTU (DTLS adds its overhead on top).
            #expect((link.clientPackets + link.serverPackets).allSatisfy { $0.count <= SCTPConfiguration().mtu })
        }

        @Test func emptyMessagesUseTheirOwnPPIDs() throws {
            let link = try SCTPTestLink()
            link.connect()
            let channel = try link.open(from: .server, label: "empty")
            let before = link.serverPackets.count
            try link.send(.text(""), from: .server, on: channel.id)
            try link.send(.binary([]), from: .server, on: channel.id)
            #expect(link.run { link.messages(.client, on: channel.id).count == 2 })
            #expect(link.messages(.client, on: channel.id) == [.text(""), .binary([])])
            // RFC 8831 §6.6: one zero byte with PPID 56, then 57 (the DATA chunk's PPID is at
            // bytes 24..<28 of a packet whose first chunk is DATA).
            let data = link.serverPackets[before...].filter { $0.count >= 29 && $0[12] == 0x00 }
            #expect(data.map { Array($0[24..<29]) } == [[0, 0, 0, 56, 0], [0, 0, 0, 57, 0]])
        }

        @Test func messagesOverTheMaximumSizeAreRefused() throws {
            let small = SCTPConfiguration(maxMessageSize: 15 * 1024)
            let link = try SCTPTestLink(client: small, server: SCTPConfiguration())
            link.connect()
            let channel = try link.open(from: .client, label: "limits")
            // The app's own limit is 15 KiB: exactly that goes, one byte more does not.
            try link.send(.binary([UInt8](repeating: 1, count: 15 * 1024)), from: .client, on: channel.id)
            #expect(throws: DataChannelError.messageTooLarge) {
                try link.client.send(.binary([UInt8](repeating: 1, count: 15 * 1024 + 1)), on: channel.id, now: link.now)
            }
            #expect(throws: DataChannelError.messageTooLarge) {
                try link.client.send(.text(String(repeating: "a", count: 15 * 1024 + 1)), on: channel.id, now: link.now)
            }
            // The server allows 64 KiB; the client drops what is over its own 15 KiB.
            try link.send(.binary([UInt8](repeating: 2, count: 20 * 1024)), from: .server, on: channel.id)
            try link.send(.text("after"), from: .server, on: channel.id)
            #expect(link.run { !link.messages(.client, on: channel.id).isEmpty })
            #expect(link.messages(.client, on: channel.id) == [.text("after")])
            #expect(link.client.droppedMessages == 1)
            #expect(link.client.lastDropReason == .messageTooLarge)
            #expect(link.messages(.server, on: channel.id).first?.count == 15 * 1024)
        }

        @Test func sendingNeedsAnOpenChannel() throws {
            let link = try SCTPTestLink()
            #expect(throws: DataChannelError.noSuchChannel) { try link.client.send(.text("x"), on: 0, now: 0) }
            let early = try link.client.openChannel(label: "early", now: 0)
            #expect(early.channel.state == .connecting)
            #expect(early.actions.isEmpty)
            #expect(throws: DataChannelError.channelNotOpen) { try link.client.send(.text("x"), on: early.channel.id, now: 0) }
            // Opened before the association: announced once it is up.
            link.connect()
            #expect(link.run { link.server.channel(early.channel.id) != nil })
            #expect(link.client.channel(early.channel.id)?.state == .open)
            #expect(link.server.channel(early.channel.id)?.label == "early")
        }

        @Test func streamIDsFollowTheDTLSRole() throws {
            let link = try SCTPTestLink()
            link.connect()
            #expect(throws: DataChannelError.invalidStream) { try link.client.openChannel(label: "odd", id: 1, now: link.now) }
            #expect(throws: DataChannelError.invalidStream) { try link.server.openChannel(label: "even", id: 4, now: link.now) }
            #expect(throws: DataChannelError.invalidStream) { try link.client.openChannel(label: "far", id: 2000, now: link.now) }
            let chosen = try link.client.openChannel(label: "chosen", id: 10, now: link.now)
            link.collect(chosen.actions, from: .client)
            #expect(throws: DataChannelError.streamInUse) { try link.client.openChannel(label: "again", id: 10, now: link.now) }
            #expect(link.run { link.server.channel(10)?.label == "chosen" })
        }

        @Test func negotiatedChannelsSendNoDCEP() throws {
            let link = try SCTPTestLink()
            link.connect()
            let packetsBefore = link.clientPackets.count + link.serverPackets.count
            // Either parity is fine when both sides agreed on the id out of band.
            let client = try link.client.openChannel(label: "n", ordered: false, id: 7, negotiated: true, now: link.now)
            let server = try link.server.openChannel(label: "n", ordered: false, id: 7, negotiated: true, now: link.now)
            // Events only: usrsctp's timer clock is the process's, so a heartbeat that another
            // test's association made due may ride along; what must not be there is a DATA chunk
            // (chunk type 0, which DCEP would be sent in).
            func events(_ actions: [SCTPAction]) -> [SCTPAction] { actions.filter { if case .event = $0 { true } else { false } } }
            func carriesData(_ actions: [SCTPAction]) -> Bool { actions.contains { if case .send(let bytes) = $0 { bytes.count > 12 && bytes[12] == 0 } else { false } } }
            #expect(events(client.actions) == [.event(.opened(client.channel))] && !carriesData(client.actions), "\(client.actions)")
            #expect(events(server.actions) == [.event(.opened(server.channel))] && !carriesData(server.actions), "\(server.actions)")
            #expect(link.clientPackets.count + link.serverPackets.count == packetsBefore)
            #expect(client.channel.negotiated && client.channel.state == .open)
            try link.send(.text("hello"), from: .client, on: 7)
            #expect(link.run { link.messages(.server, on: 7) == [.text("hello")] })
            #expect(throws: DataChannelError.invalidStream) {
                try link.client.openChannel(label: "n", negotiated: true, now: link.now)
            }
        }

        @Test func closingAChannelResetsBothStreams() throws {
            let link = try SCTPTestLink()
            link.connect()
            let channel = try link.open(from: .client, label: "bye")
            try link.send(.text("last words"), from: .client, on: channel.id)
            link.collect(try link.client.closeChannel(channel.id, now: link.now), from: .client)
            #expect(link.client.channel(channel.id)?.state == .closing)
            #expect(throws: DataChannelError.channelNotOpen) { try link.client.send(.text("late"), on: channel.id, now: link.now) }
            #expect(link.run {
                link.clientEvents.contains(.closed(channelID: channel.id)) && link.serverEvents.contains(.closed(channelID: channel.id))
            })
            // Sent before the close, so it arrived before the reset (RFC 8831 §6.7).
            #expect(link.messages(.server, on: channel.id) == [.text("last words")])
            #expect(link.client.channel(channel.id) == nil)
            #expect(link.server.channel(channel.id) == nil)
            // RE-CONFIG chunks (type 130, RFC 6525) went both ways.
            #expect(link.clientPackets.contains { $0.count > 12 && $0[12] == 130 })
            #expect(link.serverPackets.contains { $0.count > 12 && $0[12] == 130 })
            // The id is free again, and the new channel works.
            let again = try link.open(from: .client, label: "again")
            #expect(again.id == channel.id)
            try link.send(.text("new"), from: .client, on: again.id)
            #expect(link.run { link.messages(.server, on: again.id).last == .text("new") })
        }

        @Test func theServerCanCloseAClientChannel() throws {
            let link = try SCTPTestLink()
            link.connect()
            let channel = try link.open(from: .client, label: "closed-by-server")
            link.collect(try link.server.closeChannel(channel.id, now: link.now), from: .server)
            #expect(link.run {
                link.clientEvents.contains(.closed(channelID: channel.id)) && link.serverEvents.contains(.closed(channelID: channel.id))
            })
            #expect(link.client.channels.isEmpty)
        }

        @Test func closingTheAssociationAbortsIt() throws {
            let link = try SCTPTestLink()
            link.connect()
            let one = try link.open(from: .client, label: "one")
            let two = try link.open(from: .server, label: "two")
            let actions = link.client.close()
            #expect(actions.last == .event(.associationDown(.closedLocally)))
            #expect(actions.contains(.event(.closed(channelID: one.id))))
            link.collect(actions, from: .client)
            // The ABORT (chunk type 6) reaches the server.
            #expect(link.clientPackets.last.map { $0[12] } == 0x06)
            #expect(link.run { link.serverEvents.contains(.associationDown(.abortedByPeer)) })
            #expect(link.serverEvents.contains(.closed(channelID: one.id)))
            #expect(link.serverEvents.contains(.closed(channelID: two.id)))
            #expect(link.server.state == .closed(.abortedByPeer))
            #expect(throws: DataChannelError.associationClosed) { try link.client.send(.text("x"), on: one.id, now: link.now) }
            #expect(link.client.close().isEmpty)
        }

        @Test func aPeerThatNeverAnswersCannotStart() throws {
            let link = try SCTPTestLink()
            link.drop = { _, _ in true }
            collectStart(link)
            // INIT is retried with a doubling timeout (RFC 9260 §5.1, §6.3.3) until
            // Max.Init.Retransmits; one-second steps keep the test quick.
            #expect(link.run(timeout: 1000, step: 1) { link.clientEvents.contains(.associationDown(.cannotStart)) })
            // Nine INITs (Max.Init.Retransmits 8), then an ABORT.
            #expect(link.clientPackets.map { $0[12] } == [UInt8](repeating: 0x01, count: 9) + [0x06])
            // Well over a minute of doubling timeouts. Not an exact figure: usrsctp's timer clock
            // is the process's, and associations of tests running beside this one move it too.
            #expect(link.now > 100)
        }

        /// A link on a clock of its own comes up beside an association on the monotonic clock,
        /// whose readings (the machine's uptime) are far from the link's. Before `SCTPClock`,
        /// each call of the live association moved the one timer wheel by that gap, every timer
        /// fired, and a link's INIT lost for a moment was retransmitted to exhaustion: the
        /// association never came up (CI, `closingOverDTLS`, beside the live tests).
        @Test func aLinkOnItsOwnClockIsNotMovedByTheMonotonicClock() throws {
            let live = try SCTPAssociation(role: .server)
            #expect(live.configuration.clock == .monotonic)
            let link = try SCTPTestLink()
            // The client's packets are lost for the link's first 3 s: INIT at 0, 1 and 3 s.
            link.drop = { [unowned link] role, _ in role == .client && link.now < 3 }
            collectStart(link)
            let up = link.run(timeout: 30) {
                _ = live.handleTimers(now: HelperProcess.now())
                return link.clientEvents.contains(.associationUp) && link.serverEvents.contains(.associationUp)
            }
            let inits = link.clientPackets.filter { $0[12] == 0x01 }.count
            #expect(up && inits <= 4, "\(inits) INITs; \(link.clientEvents)")
        }

        private func collectStart(_ link: SCTPTestLink) {
            link.collect(link.server.start(now: link.now), from: .server)
            link.collect(link.client.start(now: link.now), from: .client)
        }
    }
}
