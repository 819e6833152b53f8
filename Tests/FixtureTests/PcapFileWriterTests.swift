import Fixture
import Foundation
import TestSupport
import Testing

/// The capture's own pcap files: what `revue capture` writes, `PcapReader` (and tcpdump) read back.
@Suite struct PcapFileWriterTests {
    @Test func datagramsRoundTripThroughThePcapReader() throws {
        let directory = try TemporaryDirectory(prefix: "pcap-writer")
        let path = directory.file("capture.pcap")
        var generator = SeededGenerator(seed: 21)
        var written: [(payload: [UInt8], seconds: UInt32, nanoseconds: UInt32, port: UInt16)] = []
        do {
            let writer = try PcapFileWriter(path: path)
            // An empty datagram, the largest IPv4 frames, and random ones between.
            let sizes = [0, 1, PcapFileWriter.maximumPayload] + (0..<200).map { _ in Int(generator.next() % 1400) }
            for (index, size) in sizes.enumerated() {
                let entry = (generator.bytes(size), UInt32(1_700_000_000 + index / 10), UInt32(generator.next() % 1_000_000_000),
                             UInt16(5000 + index % 3 * 10))
                try writer.append(payload: entry.0, seconds: entry.1, nanoseconds: entry.2, sourcePort: entry.3, destinationPort: 4000)
                written.append(entry)
            }
            #expect(writer.records == sizes.count)
            #expect(Int64(try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)) == writer.bytesWritten)
        }
        let reader = try PcapReader(bytes: Array(try #require(FileManager.default.contents(atPath: path))))
        #expect(reader.linkType == .raw)
        #expect(reader.truncation == nil && reader.skippedRecords == 0)
        #expect(reader.datagrams.map(\.payload) == written.map(\.payload))
        #expect(reader.datagrams.map(\.sourcePort) == written.map(\.port))
        #expect(reader.datagrams.allSatisfy { $0.destinationPort == 4000 && $0.sourceAddress == "127.0.0.1" && $0.destinationAddress == "127.0.0.1" })
        for (datagram, entry) in zip(reader.datagrams, written) {
            #expect(abs(datagram.time - (Double(entry.seconds) + Double(entry.nanoseconds) / 1e9)) < 1e-6)
        }
    }

    @Test func theIPv4HeaderChecksumVerifies() {
        let record = PcapFileWriter.record(payload: [1, 2, 3], seconds: 1, nanoseconds: 2, sourcePort: 5000, destinationPort: 4000)
        // RFC 1071: the sum over a header that holds its checksum is all ones.
        var sum: UInt32 = 0
        for index in stride(from: 16, to: 36, by: 2) { sum += UInt32(record[index]) << 8 | UInt32(record[index + 1]) }
        while sum > 0xFFFF { sum = (sum & 0xFFFF) + (sum >> 16) }
        #expect(sum == 0xFFFF)
    }

    @Test func aFileCutShortKeepsItsWholeRecords() throws {
        let directory = try TemporaryDirectory(prefix: "pcap-writer")
        let path = directory.file("capture.pcap")
        let writer = try PcapFileWriter(path: path)
        for index in 0..<10 { try writer.append(payload: [0x80, 0x60, 0, UInt8(index)], seconds: 5, nanoseconds: 0, sourcePort: 1, destinationPort: 2) }
        writer.close()
        #expect(throws: FixtureError.self) { try writer.append(payload: [1], seconds: 5, nanoseconds: 0, sourcePort: 1, destinationPort: 2) }
        // A capture killed in the middle of a write.
        let bytes = Array(try #require(FileManager.default.contents(atPath: path)))
        let reader = try PcapReader(bytes: Array(bytes.dropLast(7)))
        #expect(reader.datagrams.count == 9)
        #expect(reader.truncation != nil)
    }

    @Test func tcpdumpReadsTheCapture() throws {
        let directory = try TemporaryDirectory(prefix: "pcap-writer")
        let path = directory.file("capture.pcap")
        let writer = try PcapFileWriter(path: path)
        try writer.append(payload: [0x80, 0x60, 0, 1] + [UInt8](repeating: 0, count: 20), seconds: 1_700_000_000, nanoseconds: 5,
                          sourcePort: 5000, destinationPort: 4000)
        writer.close()
        let run = try Tool.run("tcpdump", ["-nn", "-r", path])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("127.0.0.1.5000 > 127.0.0.1.4000: UDP, length 24"), "\(run.standardOutput)")
    }
}
