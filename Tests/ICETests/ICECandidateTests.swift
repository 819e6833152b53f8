import ICE
import Net
import TestKit
import Testing

@Suite struct ICECandidateTests {
    /// Lines that print back exactly as they came. Chromium's are in the shape libwebrtc sends
    /// (host, srflx with raddr/rport, TCP with tcptype, mDNS); aiortc's as aioice's `to_sdp` writes
    /// them; Revue's own server candidate as the research note's answer has it.
    @Test(arguments: [
        "candidate:1 1 udp 2130706431 127.0.0.1 40000 typ host",
        "candidate:1 1 udp 2130706431 127.0.0.1 40000 typ host generation 0",
        "candidate:3521813722 1 udp 2122260223 192.168.1.5 56143 typ host generation 0 ufrag AbCd network-id 1 network-cost 10",
        "candidate:842163049 1 udp 1686052607 203.0.113.7 40311 typ srflx raddr 192.168.1.5 rport 56143 generation 0 ufrag AbCd network-id 1 network-cost 10",
        "candidate:2336198130 1 tcp 1518280447 192.168.1.5 9 typ host tcptype active generation 0 ufrag AbCd network-id 1",
        "candidate:1467250027 1 udp 2122260223 4f0ea8b5-39f8-4f1a-9a8b-3b5f35d2a9c4.local 54321 typ host generation 0",
        "candidate:a1b2c3d4e5f60718293a4b5c6d7e8f90 1 udp 2130706431 127.0.0.1 55123 typ host",
        "candidate:1 1 UDP 2130706431 ::1 5000 typ host",
        "candidate:4 1 udp 16777215 198.51.100.9 3478 typ relay raddr 203.0.113.7 rport 40311 x-vendor 42",
    ])
    func linesRoundTrip(line: String) throws {
        let candidate = try ICECandidate(parsing: line)
        #expect(candidate.description == line)
        #expect(ICECandidate(candidate.description) == candidate)
    }

    @Test func fieldsAreTyped() throws {
        let candidate = try ICECandidate(parsing:
            "a=candidate:842163049 1 udp 1686052607 203.0.113.7 40311 typ srflx raddr 192.168.1.5 rport 56143 generation 0 ufrag AbCd network-id 1 network-cost 10 foo bar\r\n")
        #expect(candidate == ICECandidate(
            foundation: "842163049", priority: 1_686_052_607, address: "203.0.113.7", port: 40311, type: .serverReflexive,
            relatedAddress: "192.168.1.5", relatedPort: 56143, generation: 0, ufrag: "AbCd", networkID: 1, networkCost: 10,
            extensions: [ICECandidate.Extension(name: "foo", value: "bar")]))
        #expect(candidate.socketAddress == SocketAddress("203.0.113.7:40311"))
        #expect(candidate.isUDP)
        // Without the prefix, as an SDP parser hands over the attribute value.
        #expect(try ICECandidate(parsing: "1 1 udp 2130706431 127.0.0.1 40000 typ host").port == 40000)
        #expect(try ICECandidate(parsing: "1 1 udp 1 a.local 9 typ host").socketAddress == nil)
        #expect(try ICECandidate(parsing: "1 1 tcp 1 10.0.0.1 9 typ host tcptype passive").isUDP == false)
    }

    @Test(arguments: [
        ("candidate:1 1 udp 2130706431 127.0.0.1 40000 typ", "bad ICE candidate: 7 fields, at least 8 (through \"typ <type>\")"),
        ("candidate:1 0 udp 1 127.0.0.1 1 typ host", "bad ICE candidate: component \"0\" is not 1–256"),
        ("candidate:1 257 udp 1 127.0.0.1 1 typ host", "bad ICE candidate: component \"257\" is not 1–256"),
        ("candidate:1 1 udp 4294967296 127.0.0.1 1 typ host", "bad ICE candidate: priority \"4294967296\" is not a 32-bit number"),
        ("candidate:1 1 udp -1 127.0.0.1 1 typ host", "bad ICE candidate: priority \"-1\" is not a 32-bit number"),
        ("candidate:1 1 udp 1 127.0.0.1 65536 typ host", "bad ICE candidate: port \"65536\" is not 0–65535"),
        ("candidate:1 1 udp 1 127.0.0.1 1 type host", "bad ICE candidate: \"typ\" expected, found \"type\""),
        ("candidate:f:o 1 udp 1 127.0.0.1 1 typ host", "bad ICE candidate: foundation \"f:o\" is not 1–32 ice-chars"),
        ("candidate:1 1 udp 1 127.0.0.1 1 typ host generation", "bad ICE candidate: extension \"generation\" has no value"),
        ("candidate:1 1 udp 1 127.0.0.1 1 typ host generation x", "bad ICE candidate: generation \"x\" is not a number"),
        ("candidate:1 1 udp 1 127.0.0.1 1 typ host rport 1 rport 2", "bad ICE candidate: rport appears twice"),
        ("candidate:1 1 u@p 1 127.0.0.1 1 typ host", "bad ICE candidate: transport \"u@p\" is not a token"),
    ])
    func badLinesSayWhy(line: String, description: String) {
        #expect {
            try ICECandidate(parsing: line)
        } throws: { error in
            (error as? ICECandidateError)?.description == description
        }
    }

    /// RFC 8445 §5.1.2.1 with the §5.1.2.2 type preferences.
    @Test(arguments: [
        (ICECandidateType.host, UInt16(65535), UInt16(1), UInt32(2_130_706_431)),
        (.peerReflexive, 65535, 1, 1_862_270_975),
        (.serverReflexive, 65535, 1, 1_694_498_815),
        (.relayed, 65535, 1, 16_777_215),
        (.host, 0, 2, 2_113_929_470),
    ])
    func priorityFormula(type: ICECandidateType, localPreference: UInt16, component: UInt16, expected: UInt32) {
        #expect(ICECandidate.priority(type: type, localPreference: localPreference, component: component) == expected)
    }

    @Test func parserSurvivesMutations() {
        let seeds = [
            "candidate:842163049 1 udp 1686052607 203.0.113.7 40311 typ srflx raddr 192.168.1.5 rport 56143 generation 0 ufrag AbCd network-id 1 network-cost 10",
            "candidate:2336198130 1 tcp 1518280447 192.168.1.5 9 typ host tcptype active generation 0",
            "a=candidate:1 1 udp 2130706431 ::1 5000 typ host x y\r\n",
        ].map { Array($0.utf8) }
        var generator = SeededGenerator(seed: 8839)
        var parsed = 0
        for round in 0..<100_000 {
            let input = String(decoding: generator.mutate(seeds[round % seeds.count]), as: UTF8.self)
            guard let candidate = try? ICECandidate(parsing: input) else { continue }
            parsed += 1
            #expect(ICECandidate(candidate.description) == candidate)
        }
        #expect(parsed > 1_000)
    }
}
