import Publisher

/// A message another participant sent with `send()` (`onDataReceived(_:)`): who, the text, and
/// whether it came on the reliable channel.
public typealias DataMessage = Publisher.DataMessage
