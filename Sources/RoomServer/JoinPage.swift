import Foundation
import HTTP

/// The join page (`GET /join/{roomId}?token=TOKEN&name=NAME`): plain HTML and JavaScript with no
/// build step (`Resources/join.html`, built into the binary), that joins with camera and
/// microphone, shows every participant's video with their name, and has mic, camera, screen
/// share and leave buttons. For people in a browser, and for the browser tests.
enum JoinPage {
    static let html: [UInt8] = EmbeddedResources.file("join.html") ?? Array("<!doctype html><p>The join page is missing from this build.".utf8)

    static func response(_ request: HTTPRequest) -> HTTPResponse {
        var response = HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", body: html)
        // The page asks for the camera and microphone, and runs only its own script.
        response.headers.append(("Cache-Control", "no-store"))
        response.headers.append(("Content-Security-Policy",
                                 "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self' ws: wss:; media-src * blob:"))
        return response
    }
}

/// The files of `Resources/`, built into the module by the EmbedFiles plugin.
enum EmbeddedResources {
    static func file(_ name: String) -> [UInt8]? {
        guard let encoded = encodedFiles.first(where: { $0.name == name })?.base64, let data = Data(base64Encoded: encoded) else { return nil }
        return Array(data)
    }
}
