import Signaling

/// What a stream carries (`Stream.kind`, `pauseAllStreams(_:)`).
public enum StreamKind: String, Sendable, Hashable, CaseIterable {
    case AUDIO
    case VIDEO
    case SHARE

    var signaling: Signaling.StreamKind {
        switch self {
        case .AUDIO: .audio
        case .VIDEO: .video
        case .SHARE: .share
        }
    }

    init(_ kind: Signaling.StreamKind) {
        switch kind {
        case .audio: self = .AUDIO
        case .video: self = .VIDEO
        case .share: self = .SHARE
        }
    }
}
