import RTP
import TestKit
import Testing

@Suite struct RTPPacketTests {
    /// The first VP8 packet of the example fixture (witnessed): PT 96, marker set, a keyframe.
    static let witnessedVP8 = bytes("80e007c3a6385d7800001b59 908080001039009d012a80026801")

    @Test func witnessedVP8HeaderParses() throws {
        let packet = try RTPPacket(parsing: Self.witnessedVP8)
        #expect(packet.payloadType == 96)
        #expect(packet.marker)
        #expect(packet.sequenceNumber == 0x07C3)
        #expect(packet.timestamp == 0xA638_5D78)
        #expect(packet.ssrc == 7001)
        #expect(packet.csrcs.isEmpty)
        #expect(packet.headerExtension == nil)
        #expect(packet.payload == bytes("908080001039009d012a80026801"))
        #expect(try packet.marshal() == Self.witnessedVP8)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let packet: RTPPacket
        var testDescription: String { name }
    }

    /// Invented packets covering each optional part of the header.
    static let invented: [Case] = [
        Case(name: "plain", packet: RTPPacket(payloadType: 111, sequenceNumber: 1, timestamp: 960, ssrc: 1, payload: [1, 2, 3])),
        Case(name: "CSRCs", packet: RTPPacket(payloadType: 96, sequenceNumber: 65535, timestamp: .max, ssrc: 9,
                                              csrcs: [1, 2, 0xFFFF_FFFF], payload: [0xAA])),
        Case(name: "padding", packet: RTPPacket(marker: true, payloadType: 100, sequenceNumber: 7, timestamp: 3, ssrc: 4,
                                                payload: [9, 9], paddingLength: 6)),
        Case(name: "padding only", packet: RTPPacket(payloadType: 100, sequenceNumber: 8, timestamp: 3, ssrc: 4, payload: [],
                                                     paddingLength: 255)),
        Case(name: "one-byte extension", packet: RTPPacket(
            payloadType: 96, sequenceNumber: 2, timestamp: 5, ssrc: 6,
            headerExtension: .oneByte([.init(id: 1, data: [0x12]), .init(id: 3, data: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16])]),
            payload: [1])),
        Case(name: "two-byte extension", packet: RTPPacket(
            payloadType: 96, sequenceNumber: 2, timestamp: 5, ssrc: 6,
            headerExtension: .twoByte(appBits: 3, [.init(id: 200, data: []), .init(id: 1, data: Array(repeating: 7, count: 20))]),
            payload: [1])),
        Case(name: "other extension profile", packet: RTPPacket(
            payloadType: 96, sequenceNumber: 2, timestamp: 5, ssrc: 6,
            headerExtension: .other(profile: 0x1234, data: [1, 2, 3, 4]), payload: [])),
    ]

    @Test(arguments: invented)
    func inventedPacketsRoundTrip(_ example: Case) throws {
        let wire = try example.packet.marshal()
        #expect(wire.count == example.packet.marshalSize)
        #expect(try RTPPacket(parsing: wire) == example.packet)
        var appended: [UInt8] = [0xEE]
        try example.packet.marshal(into: &appended)
        #expect(Array(appended.dropFirst()) == wire)
    }

    @Test func oneByteExtensionSkipsPaddingAndStopsAtID15() throws {
        // Profile 0xBEDE, 2 words: element 1 (1 byte), a padding byte, element 2 (2 bytes), padding.
        let wire = bytes("90600001 00000001 00000002 BEDE0002 10AA0021 BBCC0000 FF")
        let packet = try RTPPacket(parsing: wire)
        #expect(packet.headerExtension?.element(1) == [0xAA])
        #expect(packet.headerExtension?.element(2) == [0xBB, 0xCC])
        #expect(packet.payload == [0xFF])
        let stopped = try RTPPacket(parsing: bytes("90600001 00000001 00000002 BEDE0001 10AAF0EE 01"))
        #expect(stopped.headerExtension == .oneByte([.init(id: 1, data: [0xAA])]))
    }

    @Test(arguments: [
        ("empty", ""),
        ("short header", "8060000100000001000000"),
        ("version 1", "406000010000000100000002"),
        ("CSRC count beyond the data", "8F6000010000000100000002"),
        ("extension beyond the data", "906000010000000100000002BEDE0004"),
        ("zero padding count", "A06000010000000100000002AA00"),
        ("padding longer than the packet", "A06000010000000100000002AA05"),
        ("one-byte element beyond its block", "906000010000000100000002BEDE00011FAAAAAA"),
    ])
    func malformedPacketsAreRejected(name: String, hex: String) {
        #expect(throws: RTPParseError.self, "\(name)") { try RTPPacket(parsing: bytes(hex)) }
    }

    @Test func unrepresentablePacketsAreNotSerialised() {
        let tooManyCSRCs = RTPPacket(payloadType: 1, sequenceNumber: 1, timestamp: 1, ssrc: 1, csrcs: Array(repeating: 1, count: 16), payload: [])
        #expect(throws: RTPParseError.self) { try tooManyCSRCs.marshal() }
        let badPayloadType = RTPPacket(payloadType: 200, sequenceNumber: 1, timestamp: 1, ssrc: 1, payload: [])
        #expect(throws: RTPParseError.self) { try badPayloadType.marshal() }
        let badElement = RTPPacket(payloadType: 1, sequenceNumber: 1, timestamp: 1, ssrc: 1,
                                   headerExtension: .oneByte([.init(id: 15, data: [1])]), payload: [])
        #expect(throws: RTPParseError.self) { try badElement.marshal() }
    }

    @Test func rtcpIsToldApartFromRTP() {
        #expect(RTPPacket.looksLikeRTCP(bytes("80c80006")))
        #expect(RTPPacket.looksLikeRTCP(bytes("81cd0003")))
        #expect(!RTPPacket.looksLikeRTCP(Self.witnessedVP8))
        #expect(!RTPPacket.looksLikeRTCP(bytes("80")))
    }
}
