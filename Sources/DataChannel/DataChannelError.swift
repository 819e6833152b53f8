/// Why a data channel call failed, or why an incoming message was dropped. Compare with the
/// static values (`error == .messageTooLarge`); `description` says what happened in words.
public struct DataChannelError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: Sendable, Equatable {
        case setup, associationClosed, notEstablished, messageTooLarge, noSuchChannel, channelNotOpen, streamInUse,
             invalidStream, noFreeStream, bufferFull, sendFailed, invalidDCEP, unexpectedMessage, malformedPacket
    }

    private let code: Code
    /// What happened.
    public let detail: String

    private init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    /// usrsctp could not make or configure the socket (an internal fault).
    public static let setup = DataChannelError(.setup, "SCTP setup failed")
    /// The association ended; nothing can be sent on it.
    public static let associationClosed = DataChannelError(.associationClosed, "the SCTP association is closed")
    /// The association is not established yet (for calls that need it up, such as a stream reset).
    public static let notEstablished = DataChannelError(.notEstablished, "the SCTP association is not established")
    /// A message is larger than the configured maximum (`SCTPConfiguration.maxMessageSize`).
    public static let messageTooLarge = DataChannelError(.messageTooLarge, "the message is larger than the maximum message size")
    /// No channel has this id.
    public static let noSuchChannel = DataChannelError(.noSuchChannel, "no data channel has this id")
    /// The channel is connecting, closing or closed.
    public static let channelNotOpen = DataChannelError(.channelNotOpen, "the data channel is not open")
    /// A channel already uses this stream id.
    public static let streamInUse = DataChannelError(.streamInUse, "a data channel already uses this stream id")
    /// The id is not one this side may choose (RFC 8832 §6: even for the DTLS client, odd for
    /// the server) or is beyond the association's streams.
    public static let invalidStream = DataChannelError(.invalidStream, "this stream id cannot be used")
    /// Every stream id this side may choose is taken.
    public static let noFreeStream = DataChannelError(.noFreeStream, "no free stream id is left")
    /// The messages waiting for room in SCTP's send buffer already fill `maxBufferedAmount`.
    public static let bufferFull = DataChannelError(.bufferFull, "too much data is waiting to be sent")
    /// usrsctp refused the message.
    public static let sendFailed = DataChannelError(.sendFailed, "SCTP could not send the message")
    /// A DCEP message was malformed or broke RFC 8832 §6; the channel was closed.
    public static let invalidDCEP = DataChannelError(.invalidDCEP, "invalid DCEP message")
    /// A message arrived on a stream without an open channel, or with a PPID data channels do
    /// not use.
    public static let unexpectedMessage = DataChannelError(.unexpectedMessage, "unexpected message")
    /// An SCTP packet whose chunk or parameter lengths do not nest (RFC 9260 §3.2); dropped
    /// before usrsctp.
    public static let malformedPacket = DataChannelError(.malformedPacket, "malformed SCTP packet")

    /// The same kind of error with `detail` instead of the generic one.
    func with(_ detail: String) -> DataChannelError { DataChannelError(code, detail) }

    /// "data channel: " and the detail.
    public var description: String { "data channel: \(detail)" }

    /// Errors are equal when they are the same kind, whatever the detail.
    public static func == (lhs: DataChannelError, rhs: DataChannelError) -> Bool { lhs.code == rhs.code }
}
