import Foundation

/// Files of `Resources/` built into the binary by the EmbedFiles plugin (the helper script).
enum EmbeddedResources {
    static func file(_ name: String) -> [UInt8]? {
        guard let encoded = encodedFiles.first(where: { $0.name == name })?.base64, let data = Data(base64Encoded: encoded) else { return nil }
        return Array(data)
    }
}
