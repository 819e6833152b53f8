/// The fields and layout of one RTP packet, read in place (RFC 3550 §5.1): the hot path parses
/// each packet once into this and copies nothing.
///
/// ```
///  0                   1                   2                   3
///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |V=2|P|X|  CC   |M|     PT      |       sequence number         |
/// |                           timestamp                           |
/// |           synchronization source (SSRC) identifier            |
/// |            contributing source (CSRC) identifiers  (CC of them)|
/// |      defined by profile       |           length              |  (X=1, RFC 8285)
/// |                        header extension                       |
/// |                            payload  ...  | padding | pad count |  (P=1)
/// ```
struct RTPHeaderView {
    var marker: Bool
    var payloadType: UInt8
    var sequenceNumber: UInt16
    var timestamp: UInt32
    var ssrc: UInt32
    /// Where the CSRC list ends (12 + 4 × CC).
    var csrcEnd: Int
    /// The extension block's profile (0xBEDE, 0x100X, …); meaningful when `hasExtension`.
    var extensionProfile: UInt16
    /// The extension data, after its 4-byte header.
    var extensionStart: Int
    var extensionEnd: Int
    var hasExtension: Bool
    var payloadStart: Int
    /// Where the payload ends, padding excluded.
    var payloadEnd: Int

    var payloadLength: Int { payloadEnd - payloadStart }

    /// Reads the header; nil for anything RFC 3550 does not allow.
    init?(_ packet: UnsafeBufferPointer<UInt8>) {
        let count = packet.count
        guard count >= 12 else { return nil }
        let first = packet[0]
        guard first >> 6 == 2 else { return nil }
        marker = packet[1] & 0x80 != 0
        payloadType = packet[1] & 0x7F
        sequenceNumber = UInt16(packet[2]) << 8 | UInt16(packet[3])
        timestamp = UInt32(packet[4]) << 24 | UInt32(packet[5]) << 16 | UInt32(packet[6]) << 8 | UInt32(packet[7])
        ssrc = UInt32(packet[8]) << 24 | UInt32(packet[9]) << 16 | UInt32(packet[10]) << 8 | UInt32(packet[11])
        csrcEnd = 12 + 4 * Int(first & 0x0F)
        guard csrcEnd <= count else { return nil }
        var offset = csrcEnd
        hasExtension = first & 0x10 != 0
        if hasExtension {
            guard offset + 4 <= count else { return nil }
            extensionProfile = UInt16(packet[offset]) << 8 | UInt16(packet[offset + 1])
            let length = 4 * (Int(packet[offset + 2]) << 8 | Int(packet[offset + 3]))
            extensionStart = offset + 4
            extensionEnd = extensionStart + length
            guard extensionEnd <= count else { return nil }
            offset = extensionEnd
        } else {
            extensionProfile = 0
            extensionStart = offset
            extensionEnd = offset
        }
        payloadStart = offset
        payloadEnd = count
        if first & 0x20 != 0 {
            let padding = Int(packet[count - 1])
            guard padding > 0, padding <= count - offset else { return nil }
            payloadEnd -= padding
        }
    }

    /// Reads the extension elements into `elements` (emptied first). One-byte (RFC 8285 §4.2)
    /// and two-byte (§4.3) forms; other profiles have no elements. False for a malformed block.
    func elements(in packet: UnsafeBufferPointer<UInt8>, into elements: inout [ExtensionElement]) -> Bool {
        elements.removeAll(keepingCapacity: true)
        guard hasExtension else { return true }
        var index = extensionStart
        if extensionProfile == 0xBEDE {
            while index < extensionEnd {
                let byte = packet[index]
                let id = byte >> 4
                if id == 0 { // padding
                    index += 1
                    continue
                }
                if id == 15 { break }
                let length = Int(byte & 0x0F) + 1
                guard index + 1 + length <= extensionEnd else { return false }
                elements.append(ExtensionElement(id: id, start: index + 1, length: length))
                index += 1 + length
            }
        } else if extensionProfile & 0xFFF0 == 0x1000 {
            while index < extensionEnd {
                let id = packet[index]
                if id == 0 {
                    index += 1
                    continue
                }
                guard index + 1 < extensionEnd else { return false }
                let length = Int(packet[index + 1])
                guard index + 2 + length <= extensionEnd else { return false }
                elements.append(ExtensionElement(id: id, start: index + 2, length: length))
                index += 2 + length
            }
        }
        return true
    }
}

/// One header extension element: its ID and where its data sits in the packet.
struct ExtensionElement {
    var id: UInt8
    var start: Int
    var length: Int
}

extension [ExtensionElement] {
    /// The element with `id`, if the packet has it.
    @inline(__always)
    func find(_ id: UInt8?) -> ExtensionElement? {
        guard let id else { return nil }
        for element in self where element.id == id { return element }
        return nil
    }
}
