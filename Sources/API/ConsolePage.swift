import HTTP

/// The console (`GET /console`, docs/CONSOLE.md): one page of HTML and JavaScript with no build
/// step (`Resources/console.html`, built into the binary) that logs in with the API key and
/// secret or an operator token and then uses the REST API alone; and hls.js
/// (`Resources/hls.js`, vendored with its licence in `Resources/hls.js.LICENSE`) for its player.
enum ConsolePage {
    static let html: [UInt8] = EmbeddedResources.file("console.html") ?? Array("<!doctype html><p>The console is missing from this build.".utf8)
    static let hlsScript: [UInt8]? = EmbeddedResources.file("hls.js")

    static func response() -> HTTPResponse {
        var response = HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", body: html)
        response.headers.append(("Cache-Control", "no-store"))
        // Its own script and hls.js only; media, pictures and transcripts may come from a bucket.
        response.headers.append(("Content-Security-Policy",
                                 "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'unsafe-inline'; img-src * data: blob:; "
                                 + "media-src * blob:; connect-src *; frame-ancestors 'none'"))
        return response
    }

    static func hlsJS() -> HTTPResponse {
        guard let hlsScript else { return .text(404, "hls.js is missing from this build") }
        var response = HTTPResponse(status: 200, contentType: "text/javascript; charset=utf-8", body: hlsScript)
        response.headers.append(("Cache-Control", "public, max-age=86400"))
        return response
    }
}
