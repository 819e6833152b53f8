import Net
import TestKit
import Testing

@Suite struct SocketAddressTests {
    /// Input text → RFC 5952 output text (nil: refused).
    @Test(arguments: [
        ("127.0.0.1", "127.0.0.1"),
        ("0.0.0.0", "0.0.0.0"),
        ("255.255.255.255", "255.255.255.255"),
        ("256.0.0.1", nil),
        ("1.2.3", nil),
        ("1.2.3.4.5", nil),
        ("1..3.4", nil),
        ("01.002.3.4", "1.2.3.4"),
        ("1.2.3.-4", nil),
        ("::", "::"),
        ("::1", "::1"),
        ("1::", "1::"),
        ("2001:DB8::1", "2001:db8::1"),
        ("2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"),
        ("2001:0db8:0000:0000:0000:ff00:0042:8329", "2001:db8::ff00:42:8329"),
        ("2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"),
        ("1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"),
        ("1:2:3:4:5:6:7::", "1:2:3:4:5:6:7:0"),
        ("::ffff:192.0.2.1", "::ffff:192.0.2.1"),
        ("::192.0.2.1", "::c000:201"),
        ("1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:6:102:304"),
        ("1:2:3:4:5:6:7:8:9", nil),
        ("1::2::3", nil),
        (":::", nil),
        ("1:2:3:4:5:6:7", nil),
        ("12345::", nil),
        ("1:2:", nil),
        (":1:2::", nil),
        ("fe80::1%eth0", nil),
        ("g::", nil),
        ("", nil),
        ("1.2.3.4::", nil),
    ] as [(String, String?)])
    func ipAddressText(input: String, output: String?) {
        #expect(IPAddress(input)?.description == output)
    }

    @Test(arguments: [
        ("127.0.0.1:5000", "127.0.0.1:5000", UInt16(5000)),
        ("[::1]:5000", "[::1]:5000", 5000),
        ("[2001:DB8::0:1]:65535", "[2001:db8::1]:65535", 65535),
        ("0.0.0.0:0", "0.0.0.0:0", 0),
    ])
    func socketAddressText(input: String, output: String, port: UInt16) {
        #expect(SocketAddress(input)?.description == output)
        #expect(SocketAddress(input)?.port == port)
    }

    @Test(arguments: [
        ("127.0.0.1", "not host:port or [IPv6]:port: \"127.0.0.1\""),
        ("127.0.0.1:65536", "not a port from 0 to 65535: \"65536\""),
        ("127.0.0.1:", "not a port from 0 to 65535: \"\""),
        ("127.0.0.1:+5", "not a port from 0 to 65535: \"+5\""),
        ("::1:5000", "not host:port or [IPv6]:port: \"::1:5000\""),
        ("[::1]5000", "not host:port or [IPv6]:port: \"[::1]5000\""),
        ("[1.2.3.4]:5", "not an IPv6 address: \"1.2.3.4\""),
        ("[::1:5000", "not host:port or [IPv6]:port: \"[::1:5000\""),
        ("300.1.1.1:5", "not an IPv4 address: \"300.1.1.1\""),
    ])
    func badSocketAddressesSayWhy(input: String, description: String) {
        #expect {
            try SocketAddress(parsing: input)
        } throws: { error in
            (error as? SocketAddressError)?.description == description
        }
    }

    @Test func bytesAndValuesAgree() throws {
        let v4 = try IPAddress(parsing: "192.0.2.1")
        #expect(v4.bytes == [192, 0, 2, 1])
        #expect(v4.ipv4Value == 0xC000_0201)
        #expect(IPAddress(bytes: v4.bytes) == v4)
        let v6 = try IPAddress(parsing: "2001:db8:1234:5678:11:2233:4455:6677")
        #expect(v6.bytes == [0x20, 0x01, 0x0D, 0xB8, 0x12, 0x34, 0x56, 0x78, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77])
        #expect(IPAddress(bytes: v6.bytes) == v6)
        #expect(v6.ipv4Value == nil)
        #expect(IPAddress(bytes: [1, 2, 3]) == nil)
        #expect(IPAddress.loopbackV4.isLoopback && IPAddress.loopbackV6.isLoopback && !v4.isLoopback)
        // 1.2.3.4 and ::1.2.3.4 hold the same low bits but are different addresses.
        #expect(IPAddress("1.2.3.4") != IPAddress("::102:304"))
        #expect(Set([SocketAddress("[::1]:1"), SocketAddress("[::1]:1"), SocketAddress("127.0.0.1:1")]).count == 2)
    }

    /// Random addresses print and parse back; 100,000 mutated texts never crash the parsers.
    @Test func textRoundTripsAndSurvivesMutations() {
        var generator = SeededGenerator(seed: 4291)
        for round in 0..<100_000 {
            let ip = round % 2 == 0
                ? IPAddress(ipv4: UInt32(truncatingIfNeeded: generator.next()))
                // Sparse groups exercise the "::" choice.
                : IPAddress(ipv6High: generator.next() & 0xFFFF_0000_FFFF_0000, low: generator.next() & 0x0000_FFFF_0000_FFFF)
            let address = SocketAddress(ip: ip, port: UInt16(truncatingIfNeeded: generator.next()))
            #expect(SocketAddress(address.description) == address)
            let mutated = generator.mutate(Array(address.description.utf8))
            _ = SocketAddress(String(decoding: mutated, as: UTF8.self))
            _ = IPAddress(String(decoding: mutated, as: UTF8.self))
        }
    }
}
