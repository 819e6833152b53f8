import JobSpec
/// Any job object, as its kind's view.
public enum JobView: Encodable, Sendable, Equatable {
    case recording(RecordingView)
    case hls(HLSView)
    case livestream(LivestreamView)
    case transcription(LiveTranscriptionView)

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .recording(let view): try view.encode(to: encoder)
        case .hls(let view): try view.encode(to: encoder)
        case .livestream(let view): try view.encode(to: encoder)
        case .transcription(let view): try view.encode(to: encoder)
        }
    }

    public var common: JobCommonView {
        switch self {
        case .recording(let view): view.common
        case .hls(let view): view.common
        case .livestream(let view): view.common
        case .transcription(let view): view.common
        }
    }
}

extension JobView: Decodable {
    /// Decodes by shape: an HLS object has `playbackHlsUrl`, a livestream `outputs`.
    public init(from decoder: any Decoder) throws {
        let probe = try decoder.container(keyedBy: ProbeKeys.self)
        if probe.contains(.playbackHlsUrl) {
            self = .hls(try HLSView(from: decoder))
        } else if probe.contains(.outputs) {
            self = .livestream(try LivestreamView(from: decoder))
        } else if probe.contains(.modelId) {
            self = .transcription(try LiveTranscriptionView(from: decoder))
        } else {
            self = .recording(try RecordingView(from: decoder))
        }
    }

    private enum ProbeKeys: String, CodingKey { case playbackHlsUrl, outputs, modelId }
}
