import Foundation

/// A header line the segmentation helper writes (`segment_helper.py` has the protocol): its
/// greeting once loaded, then for each picture a mask header (the mask's bytes follow) or an
/// error. Anything else is nil: the helper is not speaking the protocol.
enum HelperAnswer: Equatable {
    case ready(description: String)
    case cannotStart(message: String)
    case mask(id: Int, width: Int, height: Int)
    case error(id: Int, message: String)

    /// The largest side the helper takes or answers with.
    static let maximumSide = 1024

    static func parse(_ line: [UInt8]) -> HelperAnswer? {
        if line.first == UInt8(ascii: "{") { return greeting(line) }
        let words = line.split(separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: false)
        guard words.count >= 2, let id = Int(String(decoding: words[1], as: UTF8.self)), id >= 0 else { return nil }
        switch String(decoding: words[0], as: UTF8.self) {
        case "mask":
            guard words.count == 3 else { return nil }
            let size = words[2].split(separator: UInt8(ascii: " "))
            guard size.count == 2, let width = Int(String(decoding: size[0], as: UTF8.self)), let height = Int(String(decoding: size[1], as: UTF8.self)),
                  (1...maximumSide).contains(width), (1...maximumSide).contains(height)
            else { return nil }
            return .mask(id: id, width: width, height: height)
        case "error":
            return .error(id: id, message: words.count == 3 ? String(decoding: words[2].prefix(300), as: UTF8.self) : "")
        default:
            return nil
        }
    }

    private struct Greeting: Decodable {
        let type: String
        let engine: String?
        let version: String?
        let model: String?
        let message: String?
    }

    private static func greeting(_ line: [UInt8]) -> HelperAnswer? {
        guard let greeting = try? JSONDecoder().decode(Greeting.self, from: Data(line)) else { return nil }
        switch greeting.type {
        case "ready": return .ready(description: "\(greeting.engine ?? "?") \(greeting.version ?? "?"), \(greeting.model ?? "?")")
        case "error": return .cannotStart(message: greeting.message ?? "no reason given")
        default: return nil
        }
    }
}
