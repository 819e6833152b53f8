import JobSpec
import Media

/// One published track: what the room says about a stream before its packets arrive.
public struct TrackDescription: Sendable, Codable, Equatable {
    public var kind: TrackKind
    public var ssrc: UInt32
    public var codec: TrackCodec
    public var payloadType: UInt8
    public var clockRate: Int
    public var channels: Int
    /// The RTX stream (RFC 4588) retransmissions of this one come on, when the offer paired one
    /// (`a=ssrc-group:FID`), and its payload type (`apt` names this track's).
    public var rtxSSRC: UInt32?
    public var rtxPayloadType: UInt8?

    public init(kind: TrackKind, ssrc: UInt32, codec: TrackCodec, payloadType: UInt8, clockRate: Int, channels: Int = 1,
                rtxSSRC: UInt32? = nil, rtxPayloadType: UInt8? = nil)
    {
        self.rtxSSRC = rtxSSRC
        self.rtxPayloadType = rtxPayloadType
        self.kind = kind
        self.ssrc = ssrc
        self.codec = codec
        self.payloadType = payloadType
        self.clockRate = clockRate
        self.channels = channels
    }

    /// Reads a track object (`{"kind", "ssrc", "codec", "payloadType", "clockRate", "channels"}`).
    /// Errors name the field under `path`, as in `participants[1].tracks[0].codec`.
    public init(validating value: JSONValue, path: String) throws(SpecError) {
        guard value.objectValue != nil else { throw SpecError("\(path): not an object") }
        let kindText = try Self.string(value, "kind", path)
        guard let kind = TrackKind(rawValue: kindText) else {
            throw SpecError("\(path).kind: unknown kind \"\(kindText)\" (expected video, audio or share)")
        }
        let codecText = try Self.string(value, "codec", path)
        guard let codec = TrackCodec(rawValue: codecText) else {
            throw SpecError("\(path).codec: unknown codec \"\(codecText)\" (expected VP8, H264 or opus)")
        }
        guard codec.isAudio == (kind == .audio) else {
            throw SpecError("\(path): codec \(codec.rawValue) does not fit kind \(kind.rawValue)")
        }
        let ssrc = try Self.integer(value, "ssrc", path, in: 0...Int(UInt32.max))
        let payloadType = try Self.integer(value, "payloadType", path, in: 0...127)
        let clockRate = try Self.integer(value, "clockRate", path, in: 1...1_000_000)
        let channels = value["channels"] == nil ? 1 : try Self.integer(value, "channels", path, in: 1...2)
        self.init(kind: kind, ssrc: UInt32(ssrc), codec: codec, payloadType: UInt8(payloadType), clockRate: clockRate, channels: channels)
    }

    /// The track as `init(validating:path:)` reads it.
    public var json: JSONValue {
        .object(["kind": .string(kind.rawValue), "ssrc": .number(Double(ssrc)), "codec": .string(codec.rawValue),
                 "payloadType": .number(Double(payloadType)), "clockRate": .number(Double(clockRate)), "channels": .number(Double(channels))])
    }

    static func string(_ value: JSONValue, _ key: String, _ path: String) throws(SpecError) -> String {
        guard let text = value[key]?.stringValue else { throw SpecError("\(path).\(key): missing or not a string") }
        return text
    }

    static func integer(_ value: JSONValue, _ key: String, _ path: String, in range: ClosedRange<Int>) throws(SpecError) -> Int {
        guard let field = value[key], let number = field.numberValue else { throw SpecError("\(path).\(key): missing or not a number") }
        guard let whole = field.integerValue, range.contains(whole) else {
            throw SpecError("\(path).\(key): \(JSONValue.number(number).text) is not a whole number in \(range.lowerBound)…\(range.upperBound)")
        }
        return whole
    }
}
