import Fixture
import Foundation
import TestSupport
import Testing

@Suite struct PcapReaderTests {
    @Test(arguments: PcapWriter.Link.allCases)
    func everyLinkTypeYieldsItsDatagrams(link: PcapWriter.Link) throws {
        var writer = PcapWriter(link: link)
        writer.append(payload: [0x80, 0x60, 1, 2], time: 100.25, sourcePort: 1234, destinationPort: 5002)
        writer.append(payload: [9], time: 100.5)
        let reader = try PcapReader(bytes: writer.bytes)
        #expect(reader.linkType.rawValue == link.rawValue)
        #expect(reader.datagrams.map(\.payload) == [[0x80, 0x60, 1, 2], [9]])
        #expect(reader.datagrams.first?.sourcePort == 1234)
        #expect(reader.datagrams.first?.destinationPort == 5002)
        #expect(abs((reader.datagrams.first?.time ?? 0) - 100.25) < 1e-6)
        #expect(reader.truncation == nil)
    }

    @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
    func byteOrderAndTimeResolutionFollowTheMagic(bigEndian: Bool, nanoseconds: Bool) throws {
        var writer = PcapWriter(link: .ethernet, bigEndian: bigEndian, nanoseconds: nanoseconds)
        writer.append(payload: [1, 2, 3], time: 7.123456)
        let reader = try PcapReader(bytes: writer.bytes)
        #expect(reader.datagrams.count == 1)
        #expect(abs((reader.datagrams.first?.time ?? 0) - 7.123456) < 1e-6)
    }

    @Test func ipv6OverEthernetIsRead() throws {
        var writer = PcapWriter(link: .ethernet, useIPv6: true)
        writer.append(payload: [5, 6], time: 1)
        let reader = try PcapReader(bytes: writer.bytes)
        #expect(reader.datagrams.first?.payload == [5, 6])
        #expect(reader.datagrams.first?.sourceAddress == "0:0:0:0:0:0:0:1")
    }

    @Test func theExampleCaptureReadsWhole() throws {
        let data = try #require(FileManager.default.contents(atPath: TestFixtures.path("example") + "/capture.pcap"))
        let reader = try PcapReader(bytes: Array(data))
        #expect(reader.linkType == .ethernet)
        #expect(reader.datagrams.count == 971)
        #expect(reader.skippedRecords == 0)
        #expect(reader.truncation == nil)
    }

    @Test func aTruncatedFileKeepsItsWholeRecordsAndSaysWhere() throws {
        var writer = PcapWriter()
        for index in 0..<5 { writer.append(payload: [UInt8(index)], time: Double(index)) }
        let cut = Array(writer.bytes.dropLast(3))
        let reader = try PcapReader(bytes: cut)
        #expect(reader.datagrams.map(\.payload) == [[0], [1], [2], [3]])
        let truncation = try #require(reader.truncation)
        #expect(truncation.contains("record 5"))
        // A cut inside a record header.
        let headerCut = Array(writer.bytes.prefix(24 + 10))
        let empty = try PcapReader(bytes: headerCut)
        #expect(empty.datagrams.isEmpty)
        #expect(empty.truncation?.contains("cut-off header") == true)
    }

    @Test func nonUDPAndSnappedRecordsAreSkipped() throws {
        var writer = PcapWriter()
        writer.appendRecord(frame: [UInt8](repeating: 0, count: 12) + [0x08, 0x06] + [UInt8](repeating: 0, count: 28), time: 1) // ARP
        writer.append(payload: [1], time: 2)
        writer.appendRecord(frame: [UInt8](repeating: 0, count: 20), time: 3, originalLength: 200) // cut by the snap length
        let reader = try PcapReader(bytes: writer.bytes)
        #expect(reader.datagrams.map(\.payload) == [[1]])
        #expect(reader.skippedRecords == 2)
    }

    @Test func pcapngIsRefusedWithAHint() {
        let pcapng: [UInt8] = [0x0A, 0x0D, 0x0D, 0x0A, 0x1C, 0, 0, 0, 0x4D, 0x3C, 0x2B, 0x1A] + [UInt8](repeating: 0, count: 20)
        let error = #expect(throws: FixtureError.self) { try PcapReader(bytes: pcapng) }
        #expect(error?.description.contains("pcapng") == true)
        #expect(error?.description.contains("tcpdump -r") == true)
    }

    @Test(arguments: [
        ([UInt8](), "too short"),
        ([0xDE, 0xAD, 0xBE, 0xEF, 0, 0, 0, 0], "unknown magic"),
        ([0xD4, 0xC3, 0xB2, 0xA1, 2, 0], "header is cut short"),
    ])
    func notPcapIsRefused(bytes: [UInt8], message: String) {
        let error = #expect(throws: FixtureError.self) { try PcapReader(bytes: bytes) }
        #expect(error?.description.contains(message) == true)
    }

    @Test func unknownLinkTypesAreRefused() {
        var header = PcapWriter().bytes
        header[20] = 147 // LINKTYPE_USER0
        let error = #expect(throws: FixtureError.self) { try PcapReader(bytes: header) }
        #expect(error?.description.contains("link type 147") == true)
    }
}
