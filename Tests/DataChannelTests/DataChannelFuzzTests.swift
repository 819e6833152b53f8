@testable import DataChannel
import TestSupport
import Testing

/// 100,000 random and mutated DCEP messages into the parser and the channel table: each must
/// parse or throw, never crash.
@Suite struct DCEPFuzzTests {
    static let rounds = 100_000

    static let seeds: [[UInt8]] = DCEPMessageTests.vectors.map { bytes($0.hex) } + [
        [0x02],
        bytes("03 82 0400 00000064 0003 0004 6c6f67 6a736f6e"),
        bytes("03 80 0080 00000000 0000 0000"),
    ]

    @Test func parserSurvivesMutations() {
        var generator = SeededGenerator(seed: 8832)
        var parsed = 0
        for round in 0..<Self.rounds {
            let input = round % 10 == 0
                ? generator.bytes(Int(generator.next() % 40))
                : generator.mutate(Self.seeds[round % Self.seeds.count])
            guard let message = try? DCEPMessage(parsing: input) else { continue }
            parsed += 1
            // Whatever parses writes back to the same bytes, except a reliable channel's
            // ignored parameter, which is written as 0.
            if let wire = try? message.serialized() {
                #expect((try? DCEPMessage(parsing: wire)) == message)
                if case .open(let open) = message, open.reliability != .reliable { #expect(wire == input) }
            }
        }
        #expect(parsed > 1000)
    }

    @Test func tableSurvivesMutatedMessagesAndResets() {
        var generator = SeededGenerator(seed: 8831)
        var table = DataChannelTable(role: .server, streams: 64)
        _ = table.associationUp(streams: 64)
        var opened = 0
        for round in 0..<Self.rounds {
            let stream = UInt16(generator.next() % 70)
            switch generator.next() % 8 {
            case 0:
                _ = table.streamsReset(incoming: [stream], outgoing: [])
            case 1:
                _ = table.streamsReset(incoming: [], outgoing: [stream])
            case 2:
                _ = try? table.close(stream)
            case 3:
                _ = try? table.open(DCEPOpen(label: "x"), id: generator.next() % 2 == 0 ? nil : stream, negotiated: round % 3 == 0)
            default:
                let commands = table.receiveDCEP(generator.mutate(Self.seeds[round % Self.seeds.count]), stream: stream)
                opened += commands.filter { if case .event(.opened) = $0 { true } else { false } }.count
            }
            // Every channel the table holds is within the streams, and open channels (only they)
            // accept messages.
            if round % 100 == 0 {
                #expect(table.channels.allSatisfy { $0.id < 64 && (table.accepts(stream: $0.id) == ($0.state == .open)) })
            }
        }
        #expect(opened > 100)
    }
}

extension SCTPTests {
    /// 100,000 packets into usrsctp through `SCTPAssociation.receive`: random bytes (which the
    /// CRC32c check drops), random chunks behind a valid common header and checksum, and
    /// mutated copies of the association's own captured packets with the checksum
    /// recomputed, so they reach usrsctp's chunk parsers. usrsctp must not crash, and a fresh
    /// association must still work afterwards.
    @Suite struct SCTPFuzzTests {
        static let rounds = 100_000
        /// A new association pair (and new captures) after this many inputs, or when the
        /// fuzzed one goes down.
        static let roundsPerPair = 2_500

        /// A pair that has run a bit of everything: handshake, DCEP, messages of several
        /// sizes, an abandoned unreliable message (FORWARD TSN), a channel reset (RE-CONFIG).
        static func capturedPair() throws -> SCTPTestLink {
            let link = try SCTPTestLink(now: 0)
            link.connect()
            let reliable = try link.open(from: .client, label: "chat", protocol: "json")
            let lossy = try link.open(from: .server, label: "game", ordered: false, reliability: .maxRetransmits(0))
            link.settle()
            try link.send(.text("hello"), from: .client, on: reliable.id)
            try link.send(.binary([UInt8](repeating: 7, count: 3000)), from: .client, on: reliable.id)
            try link.send(.binary([]), from: .server, on: reliable.id)
            var dropped = false
            link.drop = { role, packet in
                guard role == .server, !dropped, packet.count > 100 else { return false }
                dropped = true
                return true
            }
            for index in 0..<5 { try link.send(.binary([UInt8](repeating: UInt8(index), count: 200)), from: .server, on: lossy.id) }
            link.settle()
            link.drop = { _, _ in false }
            link.collect(try link.client.closeChannel(reliable.id, now: link.now), from: .client)
            link.run { link.clientEvents.contains(.closed(channelID: reliable.id)) }
            return link
        }

        @Test func capturedPacketsCarryTheChecksumTheFuzzerWrites() throws {
            let link = try Self.capturedPair()
            let packets = link.clientPackets + link.serverPackets
            #expect(packets.count > 10)
            #expect(packets.allSatisfy { CRC32c.sealed($0) == $0 })
            let types = Set(packets.flatMap(ReliabilityTests.chunkTypes))
            // INIT, INIT ACK, SACK, COOKIE ECHO, COOKIE ACK, DATA, RE-CONFIG, FORWARD TSN. (No
            // HEARTBEAT: usrsctp sends one only when the path has been idle for the interval
            // on the wall clock, which the injected clock outruns.)
            #expect(types.isSuperset(of: [1, 2, 3, 10, 11, 0, 130, 192]))
        }

        @Test func usrsctpSurvivesRandomAndMutatedPackets() throws {
            var generator = SeededGenerator(seed: 9260)
            var link = try Self.capturedPair()
            var seeds = link.clientPackets
            var now = link.now
            var replies = 0
            var pairs = 1
            var downs = 0
            var guarded = 0
            for round in 0..<Self.rounds {
                if round > 0 && (round % Self.roundsPerPair == 0 || link.server.state != .established) {
                    if link.server.state != .established { downs += 1 }
                    link = try Self.capturedPair()
                    seeds = link.clientPackets
                    // Each pair reads a clock of its own (`SCTPClock`), from its own start.
                    now = link.now
                    pairs += 1
                }
                let seed = seeds[Int(generator.next() % UInt64(seeds.count))]
                let input: [UInt8]
                switch round % 10 {
                case 0:
                    // Random bytes: dropped by the checksum.
                    input = generator.bytes(Int(generator.next() % 1500))
                case 1:
                    // Random chunks behind the seed's header (ports and verification tag).
                    input = CRC32c.sealed(Array(seed.prefix(12)) + generator.bytes(Int(generator.next() % 600)))
                case 2:
                    // Mutated, checksum left as it is.
                    input = generator.mutate(seed)
                default:
                    input = CRC32c.sealed(Self.mutate(seed, &generator))
                }
                let target = round % 7 == 0 ? link.client : link.server
                let discardedBefore = target.discardedPackets
                replies += target.receive(input, now: now).filter { if case .send = $0 { true } else { false } }.count
                guarded += target.discardedPackets - discardedBefore
                if round % 500 == 0 {
                    now += 1
                    _ = link.client.handleTimers(now: now)
                    _ = link.server.takePendingActions()
                }
            }
            // Mutations reached the parsers: usrsctp answered some (SACKs, ERRORs, ABORTs).
            #expect(replies > 1000)
            #expect(pairs >= Self.rounds / Self.roundsPerPair)
            // The guard stops those whose lengths do not nest (by design most of the random and
            // length-changing ones); a good part still reaches usrsctp.
            #expect(guarded > 0 && Self.rounds - guarded > Self.rounds / 4)
            print("SCTP fuzz: \(Self.rounds) inputs, \(guarded) stopped by the length guard, \(replies) replies,"
                + " \(pairs) association pairs, \(downs) brought down")
            // The library still works.
            let fresh = try SCTPTestLink()
            #expect(fresh.connect())
            let channel = try fresh.open(from: .client, label: "after")
            try fresh.send(.text("still fine"), from: .client, on: channel.id)
            #expect(fresh.run { fresh.messages(.server, on: channel.id) == [.text("still fine")] })
        }

        /// A mutation that keeps the 12-byte common header (most of the time), so the packet
        /// reaches the association and the edits land in its chunks. Half the mutations keep
        /// the length too (flipped bits and changed bytes), so most chunk lengths still nest and
        /// the packet gets past `SCTPPacketGuard` into usrsctp's chunk parsers.
        static func mutate(_ packet: [UInt8], _ generator: inout SeededGenerator) -> [UInt8] {
            guard packet.count > 12, generator.next() % 8 != 0 else { return generator.mutate(packet) }
            var bytes = packet
            if generator.next() % 2 == 0 {
                for _ in 0...(generator.next() % 3) {
                    let position = 12 + Int(generator.next() % UInt64(bytes.count - 12))
                    if generator.next() % 2 == 0 {
                        bytes[position] ^= UInt8(1 << (generator.next() % 8))
                    } else {
                        bytes[position] = UInt8(truncatingIfNeeded: generator.next())
                    }
                }
                return bytes
            }
            return Array(packet.prefix(12)) + generator.mutate(Array(packet.dropFirst(12)))
        }
    }
}
