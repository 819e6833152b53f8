@testable import DataChannel
import TestKit
import Testing

/// The structural check in front of usrsctp (`SCTPPacketGuard`).
@Suite struct SCTPPacketGuardTests {
    /// An INIT whose parameter list ends in a zero-length parameter (type 0xc082): the input
    /// the fuzzer found, which usrsctp 0.9.5.0 loops on forever when an association is up
    /// (usrsctp issue #570).
    static let zeroLengthParameterInit = bytes(
        "13881388 00000000 b2ba1680 0100001e 45a8954b 00100000 04000400 59a49408 c0000005 80080006 c0820000")

    @Test func wellFormedPacketsPass() throws {
        // An INIT with two parameters, a DATA chunk without its last padding, a SACK.
        try SCTPPacketGuard.check(bytes("13881388 00000000 00000000 01000020 45a8954b 00100000 04000400 59a49408 c0000004 80080006 c0820000"))
        try SCTPPacketGuard.check(bytes("13881388 11223344 00000000 00030011 00000001 00000000 00000033 61"))
        try SCTPPacketGuard.check(bytes("13881388 11223344 00000000 03000010 00000001 00010000 00000000"))
    }

    @Test(arguments: [
        ("", "shorter"),
        ("13881388 00000000 00000000 0300", "shorter"),
        ("13881388 00000000 00000000 03000000", "length 0"),
        ("13881388 00000000 00000000 03000020 00000000", "length 32"),
        ("13881388 00000000 00000000 03000008 00000000 0000", "stray"),
        ("13881388 00000000 00000000 01000010 00000000 00000000 00000000", "fixed fields"),
        ("13881388 00000000 00000000 0600000c 00010000 00000000", "length 0"),
    ])
    func malformedPacketsAreRefused(_ hex: String, _ reason: String) {
        do {
            try SCTPPacketGuard.check(bytes(hex))
            Issue.record("\(hex) passed")
        } catch {
            #expect(error == .malformedPacket)
            #expect(error.description.contains(reason))
        }
        #expect(throws: DataChannelError.malformedPacket) { try SCTPPacketGuard.check(Self.zeroLengthParameterInit) }
    }
}

extension SCTPTests.AssociationTests {
    @Test func theInitThatHangsUsrsctpIsDroppedFirst() throws {
        let link = try SCTPTestLink()
        link.connect()
        let channel = try link.open(from: .client, label: "still-up")
        #expect(link.server.receive(CRC32c.sealed(SCTPPacketGuardTests.zeroLengthParameterInit), now: link.now).isEmpty)
        #expect(link.server.discardedPackets == 1)
        #expect(link.server.lastDiscardReason == .malformedPacket)
        #expect(link.server.state == .established)
        try link.send(.text("after"), from: .client, on: channel.id)
        #expect(link.run { link.messages(.server, on: channel.id) == [.text("after")] })
    }
}
