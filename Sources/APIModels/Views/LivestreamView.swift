import JobSpec
/// The platform's Livestream object. Stream keys are secrets: outputs carry only their URLs.
public struct LivestreamView: Codable, Sendable, Equatable {
    public struct Output: Codable, Sendable, Equatable {
        public var url: String

        public init(url: String) {
            self.url = url
        }
    }

    public var common: JobCommonView
    public var start: String
    @NullEncoded public var end: String?
    public var outputs: [Output]

    public init(common: JobCommonView, start: String, end: String?, outputs: [Output]) {
        self.common = common
        self.start = start
        self.end = end
        self.outputs = outputs
    }

    private enum CodingKeys: String, CodingKey { case start, end, outputs }

    public init(from decoder: any Decoder) throws {
        common = try JobCommonView(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        start = try container.decode(String.self, forKey: .start)
        _end = try container.decode(NullEncoded<String>.self, forKey: .end)
        outputs = try container.decode([Output].self, forKey: .outputs)
    }

    public func encode(to encoder: any Encoder) throws {
        try common.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(start, forKey: .start)
        try container.encode(_end, forKey: .end)
        try container.encode(outputs, forKey: .outputs)
    }
}
