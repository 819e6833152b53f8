import Foundation
import TestSupport

/// hls.js 1.6.15 and its page (`hls-captions-player.html`) served beside a harness's stream
/// files, so hls.js loads the playlists from their own origin, open in headless Chromium on
/// `playlist` (a path under the storage). The page exposes `window.hls`, `window.errors`,
/// `window.shown` (the captions shown) and `window.state()`.
struct HLSJSPage {
    let http: StaticHTTPServer
    let chromium: HeadlessChromium
    let tab: HeadlessChromium.Page

    init(serving server: RoomServerHarness, playlist: String) throws {
        for (file, name) in [(TestFixtures.path("hls-captions-player.html"), "player.html"), (try TestPeers.hlsJS(), "hls-1.6.15.js")] {
            try? FileManager.default.removeItem(atPath: server.storage.file(name))
            try FileManager.default.copyItem(atPath: file, toPath: server.storage.path + "/" + name)
        }
        http = try StaticHTTPServer(directory: server.storage.path)
        chromium = try HeadlessChromium()
        tab = try chromium.open(http.url("player.html?src=/" + playlist))
    }
}
