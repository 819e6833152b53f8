import Foundation
import JobSpec
import Jobs
import Outputs
import Platform
import TestSupport
import Testing

/// The console (`/console`, docs/CONSOLE.md) driven in headless Chromium and Firefox ESR as an
/// operator uses it:
/// a wrong secret and a participant's token are refused; the key and secret sign in; the room
/// with two `revue publish` participants shows both; a recording started from the room's form
/// runs in "now" with a thumbnail in the participants' colours; stopped from its card; found in
/// history, where its MP4 plays and its events are listed. With `REVUE_CONSOLE_SCREENSHOTS=DIR`
/// the Chromium run saves each page there (docs/images).
extension LivePipelineSuites {
    @Suite(.browser, .timeLimit(.minutes(10))) struct ConsoleBrowserTests {
        enum Browser: String, CaseIterable, CustomTestStringConvertible {
            case chromium, firefox
            var testDescription: String { rawValue }
        }

        @Test(arguments: Browser.allCases) func anOperatorRecordsARoomFromTheConsoleAndPlaysItBack(in browser: Browser) throws {
            let server = try RoomServerHarness()
            server.startWorker()
            defer { server.stopWorker() }
            let room = try server.makeRoom()
            let media = try TemporaryDirectory(prefix: "console")
            var publishers: [Subprocess] = []
            defer { for publisher in publishers { server.end(publisher) } }
            // Red alone speaks (Blue has no microphone), so a spotlight shows Red.
            for (name, colour) in [("Red", "D02020"), ("Blue", "2040D0")] {
                let camera = try FakeMedia(colour: colour, tone: 440, in: media, name: name)
                publishers.append(try Subprocess(RevueBinary.path, ["publish", room, "--name", name, "--camera", camera.video]
                                                                    + (name == "Red" ? ["--mic", "tone"] : [])
                                                                    + ["--server", server.base, "--token", try server.token(), "--log-level", "warning"],
                                                 standardOutput: .discard, standardError: .file(media.file("\(name).log"))))
            }
            let joined = Poll.until(40) { (server.rooms.activeParticipants(roomID: room)?.count ?? 0) == 2 }
            try #require(joined, "the publishers did not join: \((try? String(contentsOfFile: media.file("Red.log"), encoding: .utf8)) ?? "")")

            let tab: any BrowserTab
            let browserProcess: AnyObject
            switch browser {
            case .chromium:
                let chromium = try HeadlessChromium(arguments: ["--window-size=1280,900"])
                (browserProcess, tab) = (chromium, try chromium.open(server.base + "/console"))
            case .firefox:
                let firefox = try HeadlessFirefox()
                (browserProcess, tab) = (firefox, try firefox.open(server.base + "/console"))
            }
            defer { withExtendedLifetime(browserProcess) {} }
            let console = ConsolePageDriver(tab: tab)
            let screenshots = browser == .chromium ? ProcessInfo.processInfo.environment["REVUE_CONSOLE_SCREENSHOTS"] : nil
            func screenshot(_ name: String) throws {
                guard let screenshots else { return }
                try Data(try tab.screenshot()).write(to: URL(fileURLWithPath: screenshots + "/\(name).png"))
            }
            try console.waitFor("document.getElementById('login') && !document.getElementById('login').hidden")

            // A wrong secret, then a participant's token, are refused in words.
            let refused = try console.signIn(key: server.auth.apiKey, secret: "not-the-secret")
            #expect(refused.contains("refused") && refused.contains("wrong"), "\(refused)")
            let participant = try server.auth.token(roles: [.rtc], permissions: [.allowJoin], roomID: room, participantID: "someone")
            let notConsole = try console.signIn(token: participant)
            #expect(notConsole.contains("cannot open the console"), "\(notConsole)")
            try screenshot("console-login")
            #expect(try tab.evaluate("document.getElementById('now').hidden") as? Bool == true)

            // The key and secret open "now": the room with both participants, live.
            _ = try console.signIn(key: server.auth.apiKey, secret: server.auth.secret)
            let roomCard = "document.querySelector('.room[data-room-id=\"\(room)\"]')"
            let both = try console.waitFor("\(roomCard) && \(roomCard).querySelectorAll('.participant').length === 2")
            #expect(both, "the room did not show two participants: \(console.text("rooms"))")
            let names = try tab.evaluate("[...\(roomCard).querySelectorAll('.participant strong')].map(n => n.textContent).sort().join(',')") as? String
            #expect(names == "Blue,Red")
            #expect(try console.waitFor("\(roomCard).textContent.includes('camera')"), "\(console.text("rooms"))")

            // An option the server does not take is refused in words; then a recording starts from
            // the room's form, and its card shows it running, with a thumbnail.
            _ = try tab.evaluate("\(roomCard).querySelector('textarea').value = '{\"quality\": \"astonishing\"}'; \(roomCard).querySelector('form.start').requestSubmit()")
            #expect(try console.waitFor("document.getElementById('status').textContent.includes('Could not start')"), "\(console.text("status"))")
            #expect(console.text("status").contains("4011"), "\(console.text("status"))")
            _ = try tab.evaluate("\(roomCard).querySelector('textarea').value = ''; window.consoleState.lastError = null; \(roomCard).querySelector('form.start').requestSubmit()")
            let card = "document.querySelector('.job[data-kind=\"recording\"]')"
            let running = try console.waitFor("\(card) && \(card).querySelector('.state').textContent === 'RECORDING_STARTED'", timeout: 60)
            #expect(running, "no running recording in now: \(console.text("jobs")); \(console.text("status"))")
            let jobID = try #require(try tab.evaluate("\(card).dataset.jobId") as? String)
            #expect(try tab.evaluate("window.consoleState.changeEvents") as? Int ?? 0 > 0, "the change feed sent nothing")
            let shown = try console.waitFor("(() => { const i = \(card).querySelector('img.thumbnail'); return i && i.complete && i.naturalWidth > 0 })()", timeout: 30)
            #expect(shown, "no thumbnail: \(console.text("jobs"))")
            // The console reloads the thumbnail every 3 s: both cameras show once both are received.
            func countColours(_ image: String) -> String {
                """
                (() => { const i = \(card).querySelector('\(image)'); if (!i || !i.naturalWidth) return { red: 0, blue: 0, pixels: 0 };
                  const c = document.createElement('canvas'); c.width = i.naturalWidth; c.height = i.naturalHeight;
                  const g = c.getContext('2d'); g.drawImage(i, 0, 0); const d = g.getImageData(0, 0, c.width, c.height).data; let red = 0, blue = 0;
                  for (let p = 0; p < d.length; p += 4) { if (d[p] > 150 && d[p + 1] < 90 && d[p + 2] < 90) red++; if (d[p + 2] > 150 && d[p] < 90 && d[p + 1] < 90) blue++; }
                  return { red, blue, pixels: d.length / 4 }; })()
                """
            }
            var colours: [String: Any] = [:]
            func showsBoth(_ image: String) throws -> Bool {
                colours = try tab.evaluate(countColours(image)) as? [String: Any] ?? [:]
                let pixels = colours["pixels"] as? Int ?? 0
                return pixels > 0 && (colours["red"] as? Int ?? 0) > pixels / 20 && (colours["blue"] as? Int ?? 0) > pixels / 20
            }
            let bothColours = try Poll.until(30) { try showsBoth("img.thumbnail") }
            #expect(bothColours, "the thumbnail does not show both colours: \(colours)")
            try screenshot("console-now")

            // The card's own controls: the layout and theme changed while it runs (the card shows
            // what the server composites now), and a capture of the picture now, shown in the card.
            #expect(try console.waitFor("\(card).querySelector('.layout-now').textContent === 'GRID layout, DEFAULT theme'"), "\(console.text("jobs"))")
            _ = try tab.evaluate("""
                (() => { const f = \(card).querySelector('form.layout'); f.elements.layout.value = 'SPOTLIGHT'; f.elements.theme.value = 'DARK';
                  f.requestSubmit(); })()
                """)
            let changed = try console.waitFor("\(card).querySelector('.layout-now').textContent === 'SPOTLIGHT layout, DARK theme'", timeout: 30)
            #expect(changed, "the layout did not change: \(console.text("jobs")); \(console.text("status"))")
            _ = try tab.evaluate("[...\(card).querySelectorAll('button')].find(b => b.textContent === 'Capture').click()")
            let captured = try console.waitFor("(() => { const i = \(card).querySelector('img.captured'); return !!i && i.complete && i.naturalWidth > 0 })()", timeout: 30)
            #expect(captured, "no capture: \(console.text("status"))")
            // A spotlight shows the active speaker alone: Red fills the picture and Blue is gone (the
            // grid before showed both). The colour tests leave out the themes' outlines (teal, and
            // DARK's and LIGHT's blues all have green in them).
            let spotlight = try tab.evaluate(countColours("img.captured")) as? [String: Any] ?? [:]
            let (pixels, red, blue) = (spotlight["pixels"] as? Int ?? 0, spotlight["red"] as? Int ?? 0, spotlight["blue"] as? Int ?? 0)
            #expect(pixels > 0 && red > pixels / 4 && blue < pixels / 100, "the capture is not a spotlight on Red: \(spotlight)")
            #expect(console.text("jobs").contains("1280x720"), "\(console.text("jobs"))")

            // Let it record a few seconds, then stop it from its card.
            Thread.sleep(forTimeInterval: 3)
            _ = try tab.evaluate("[...\(card).querySelectorAll('button')].find(b => b.textContent === 'Stop').click()")
            let stopped = Poll.until(60) { (try? server.api.store.job(UUID(uuidString: jobID) ?? UUID()))??.state == .stopped }
            #expect(stopped, "the recording did not stop")
            #expect(try console.waitFor("!document.querySelector('.job[data-job-id=\"\(jobID)\"]')"), "it stayed in now")

            // History: find it, play it, read its events.
            _ = try tab.evaluate("document.getElementById('tabHistory').click()")
            _ = try tab.evaluate("document.getElementById('historyRoom').value = '\(room)'; document.getElementById('historyFilter').requestSubmit()")
            let row = "document.querySelector('.history-item[data-job-id=\"\(jobID)\"]')"
            #expect(try console.waitFor(row), "not in history: \(console.text("historyList"))")
            _ = try tab.evaluate("\(row).querySelector('button').click()")
            #expect(try console.waitFor("document.getElementById('detail').dataset.jobId === '\(jobID)' && document.querySelectorAll('#timeline .event').length >= 3"),
                    "no events: \(console.text("detail"))")
            let events = console.text("timeline")
            #expect(events.contains("RECORDING_STARTED") && events.contains("RECORDING_STOPPED"), "\(events)")
            _ = try tab.evaluate("(() => { const p = document.getElementById('player'); p.muted = true; return p.play().then(() => true, (e) => String(e)); })()")
            let played = try console.waitFor("document.getElementById('player').currentTime > 1", timeout: 30)
            #expect(played, "the recording did not play: \(console.describe("(() => { const p = document.getElementById('player'); return { t: p.currentTime, e: p.error && p.error.message, src: p.currentSrc }; })()"))")
            #expect(try tab.evaluate("document.querySelectorAll('#parts a[download]').length") as? Int ?? 0 >= 1)
            try screenshot("console-history")
            #expect(try tab.evaluate("window.consoleState.lastError") is NSNull, "the console showed an error")
        }
    }
}

extension LivePipelineSuites.ConsoleBrowserTests {
    /// A room with one `revue publish` participant, Red (a red camera and a 440 Hz tone), and the
    /// console signed in to in Chromium. The caller ends `publisher` (`server.end`).
    static func consoleOnARoomWithRed(_ server: RoomServerHarness) throws
        -> (room: String, publisher: Subprocess, media: TemporaryDirectory, chromium: HeadlessChromium, tab: HeadlessChromium.Page, console: ConsolePageDriver)
    {
        let room = try server.makeRoom()
        let media = try TemporaryDirectory(prefix: "console-red")
        let camera = try FakeMedia(colour: "D02020", tone: 440, in: media, name: "Red")
        let publisher = try Subprocess(RevueBinary.path, ["publish", room, "--name", "Red", "--camera", camera.video, "--mic", "tone",
                                                          "--server", server.base, "--token", try server.token(), "--log-level", "warning"],
                                       standardOutput: .discard, standardError: .file(media.file("Red.log")))
        do {
            guard Poll.until(40, { (server.rooms.activeParticipants(roomID: room)?.count ?? 0) == 1 }) else {
                throw ToolError("the publisher did not join: \((try? String(contentsOfFile: media.file("Red.log"), encoding: .utf8)) ?? "")")
            }
            let chromium = try HeadlessChromium(arguments: ["--window-size=1280,900"])
            let tab = try chromium.open(server.base + "/console")
            let console = ConsolePageDriver(tab: tab)
            try console.waitFor("document.getElementById('login') && !document.getElementById('login').hidden")
            _ = try console.signIn(key: server.auth.apiKey, secret: server.auth.secret)
            return (room, publisher, media, chromium, tab, console)
        } catch {
            server.end(publisher)
            throw error
        }
    }

    /// A livestream started from the console to nginx-rtmp gets a second destination from its
    /// card, which nginx then receives, and loses it again from the card's Remove.
    @Test func anOperatorAddsAndRemovesALivestreamDestination() throws {
        let server = try RoomServerHarness()
        server.startWorker()
        defer { server.stopWorker() }
        let nginx = try NginxRTMP()
        let setup = try Self.consoleOnARoomWithRed(server)
        defer { server.end(setup.publisher) }
        let (room, tab, console) = (setup.room, setup.tab, setup.console)
        let roomCard = "document.querySelector('.room[data-room-id=\"\(room)\"]')"
        #expect(try console.waitFor(roomCard), "\(console.text("rooms"))")
        _ = try tab.evaluate("""
            (() => { const f = \(roomCard).querySelector('form.start'); f.elements.kind.value = 'livestreams';
              f.elements.kind.dispatchEvent(new Event('change')); f.elements.rtmp.value = \(ConsolePageDriver.quoted(nginx.url(stream: "first")));
              f.requestSubmit(); })()
            """)
        let card = "document.querySelector('.job[data-kind=\"livestream\"]')"
        let started = try console.waitFor("\(card) && \(card).querySelectorAll('.destination').length === 1", timeout: 60)
        try #require(started, "no livestream in now: \(console.text("jobs")); \(console.text("status"))")
        func receiving(_ stream: String) -> Bool {
            nginx.recordedFiles().contains { path in
                URL(fileURLWithPath: path).lastPathComponent.hasPrefix(stream)
                    && ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) > 20_000
            }
        }
        #expect(Poll.until(30) { receiving("first") }, "nginx received nothing of the first destination: \(nginx.recordedFiles())")

        // A refused URL stays in the field to be corrected.
        let addForm = "\(card).querySelector('form.add-destination')"
        _ = try tab.evaluate("(() => { const f = \(addForm); f.elements.url.value = 'http://not-rtmp.example/live'; f.requestSubmit(); })()")
        #expect(try console.waitFor("document.getElementById('status').textContent.includes('Could not add a destination')"), "\(console.text("status"))")
        #expect(console.text("status").contains("4015"), "\(console.text("status"))")
        #expect(try tab.evaluate("\(addForm).elements.url.value") as? String == "http://not-rtmp.example/live")
        // A URL half typed keeps its value and its focus when the list reloads, here because
        // someone else changed the job's theme (which the card's choices then follow).
        _ = try tab.evaluate("""
            (() => { window.consoleState.lastError = null; const i = \(addForm).elements.url; i.value = 'rtmp://half'; i.focus();
              return fetch('/v2/livestreams/' + \(card).dataset.jobId + '/layout', { method: 'POST', body: JSON.stringify({ theme: 'LIGHT' }),
                headers: { 'Authorization': sessionStorage.getItem('revue.console.token'), 'Content-Type': 'application/json' } }).then(r => r.status); })()
            """)
        let reloaded = try console.waitFor("\(card).querySelector('.layout-now').textContent.includes('LIGHT theme')", timeout: 30)
        #expect(reloaded, "the card did not show the new theme: \(console.text("jobs"))")
        #expect(try tab.evaluate("document.activeElement === \(addForm).elements.url && \(addForm).elements.url.value === 'rtmp://half'") as? Bool == true,
                "the half-typed URL lost its value or its focus")
        #expect(try tab.evaluate("\(card).querySelector('form.layout').elements.theme.value") as? String == "LIGHT")

        // Added from the card: nginx receives the second stream too.
        _ = try tab.evaluate("""
            (() => { const f = \(card).querySelector('form.add-destination'); f.elements.url.value = \(ConsolePageDriver.quoted(nginx.url(stream: "second")));
              f.requestSubmit(); })()
            """)
        let added = try console.waitFor("\(card).querySelectorAll('.destination').length === 2", timeout: 30)
        #expect(added, "the destination was not added: \(console.text("jobs")); \(console.text("status"))")
        #expect(Poll.until(30) { receiving("second") }, "nginx received nothing of the added destination: \(nginx.recordedFiles())")

        // Removed from the card: the job's destinations (the server's view) are the first alone again.
        let second = ConsolePageDriver.quoted(nginx.url(stream: "second"))
        _ = try tab.evaluate("[...\(card).querySelectorAll('.destination')].find(d => d.querySelector('code').textContent === \(second)).querySelector('button').click()")
        let removed = try console.waitFor("\(card).querySelectorAll('.destination').length === 1 && \(card).querySelector('.destination code').textContent.endsWith('/first')", timeout: 30)
        #expect(removed, "the destination was not removed: \(console.text("jobs")); \(console.text("status"))")
        #expect(console.text("status").hasPrefix("Done: remove"), "\(console.text("status"))")
        #expect(try tab.evaluate("window.consoleState.lastError") is NSNull, "the console showed an error: \(console.text("status"))")
        _ = try tab.evaluate("[...\(card).querySelectorAll('button')].find(b => b.textContent === 'Stop').click()")
        #expect(try console.waitFor("!document.querySelector('.job[data-kind=\"livestream\"]')", timeout: 60), "the livestream did not stop")
    }

    /// A per-participant recording (`config.mode: "tracks"`) composites nothing: its card says
    /// what it records and has no layout or capture controls, only Stop; in history its manifest
    /// opens as a player per track, which "Play together" plays (the video is the participant's
    /// own 640x360 picture).
    @Test func aPerParticipantRecordingHasNoCompositeControlsAndItsTracksPlayInHistory() throws {
        let server = try RoomServerHarness()
        server.startWorker()
        defer { server.stopWorker() }
        let setup = try Self.consoleOnARoomWithRed(server)
        defer { server.end(setup.publisher) }
        let (room, tab, console) = (setup.room, setup.tab, setup.console)
        // Started from the room's form, `{"mode": "tracks"}` under More options: the form's
        // layout, theme and thumbnails do not go with it.
        let roomCard = "document.querySelector('.room[data-room-id=\"\(room)\"]')"
        try #require(try console.waitFor(roomCard, timeout: 40), "the room is not shown: \(console.text("rooms")) \(console.text("loginError"))")
        _ = try tab.evaluate("""
            (() => { const f = \(roomCard).querySelector('form.start'); f.elements.kind.value = 'recordings';
              f.elements.config.value = '{"mode": "tracks"}'; f.requestSubmit(); })()
            """)
        let card = "document.querySelector('.job[data-kind=\"recording\"]')"
        let shown = try console.waitFor("\(card) && \(card).querySelector('.tag.mode')", timeout: 60)
        try #require(shown, "no recording in now: \(console.text("jobs")); \(console.text("status"))")
        #expect(try tab.evaluate("\(card).querySelector('.tag.mode').textContent") as? String == "each participant's tracks")
        #expect(try tab.evaluate("!\(card).querySelector('form.layout') && ![...\(card).querySelectorAll('button')].some(b => b.textContent === 'Capture' || b.textContent === 'Pause')") as? Bool == true,
                "composite controls on a per-participant recording: \(console.describe("\(card).innerText"))")
        // A few seconds of both tracks, then Stop from the card.
        let job = try #require(try tab.evaluate("\(card).dataset.jobId") as? String)
        let recorded = Poll.until(60) {
            let tracks = TrackManifest.read(directory: server.storage.file("recordings/\(job)/part-1.tracks"))?.tracks ?? []
            return tracks.count == 2 && tracks.allSatisfy { $0.end >= 3 }
        }
        #expect(recorded, "the recording's manifest does not hold 3 s of two tracks")
        _ = try tab.evaluate("[...\(card).querySelectorAll('button')].find(b => b.textContent === 'Stop').click()")
        #expect(try console.waitFor("!document.querySelector('.job[data-kind=\"recording\"]')", timeout: 60), "the recording did not stop")

        // History: the recording opens as its tracks, which play together.
        _ = try tab.evaluate("document.getElementById('tabHistory').click()")
        #expect(try console.waitFor("document.querySelector('.history-item button')", timeout: 30), "\(console.text("history"))")
        _ = try tab.evaluate("document.querySelector('.history-item button').click()")
        let opened = try console.waitFor("document.querySelectorAll('#tracks figure').length === 2", timeout: 30)
        #expect(opened, "no tracks in the detail: \(console.text("tracks")) \(console.text("playerNote")) \(console.text("status"))")
        #expect(try tab.evaluate("document.getElementById('player').hidden") as? Bool == true, "the composite player is hidden")
        let video = "document.querySelector('#tracks video')", audio = "document.querySelector('#tracks audio')"
        #expect(try console.waitFor("\(video) && \(video).videoWidth === 640 && \(video).videoHeight === 360", timeout: 30),
                "the video track did not load: \(console.describe("[\(video).readyState, \(video).error && \(video).error.message]"))")
        _ = try tab.evaluate("[...document.querySelectorAll('#tracks button')].find(b => b.textContent === 'Play together').click()")
        #expect(try console.waitFor("\(video).currentTime > 1 && \(audio).currentTime > 1", timeout: 30),
                "the tracks did not play: \(console.describe("[\(video).currentTime, \(audio).currentTime, \(audio).error && \(audio).error.message]"))")
        #expect(try tab.evaluate("window.consoleState.lastError") is NSNull, "the console showed an error: \(console.text("status"))")
    }

    /// A host on the join page (a token with `allow_mod`) records the room with the Record
    /// button; a guest sees no such button; both pages show REC while the recording runs, and
    /// not once it stopped.
    @Test func aHostRecordsFromTheJoinPageAndEveryoneSeesREC() throws {
        let server = try RoomServerHarness()
        server.startWorker()
        defer { server.stopWorker() }
        let room = try server.makeRoom()
        let media = try TemporaryDirectory(prefix: "join-host")
        let red = try FakeMedia(colour: "0xD02020", tone: 440, in: media, name: "red")
        let blue = try FakeMedia(colour: "0x2040D0", tone: 1000, in: media, name: "blue")
        let hostBrowser = try HeadlessChromium(arguments: HeadlessChromium.webRTCArguments(video: red.video, audio: red.audio) + ["--window-size=1280,800"])
        let guestBrowser = try HeadlessChromium(arguments: HeadlessChromium.webRTCArguments(video: blue.video, audio: blue.audio))
        let host = try hostBrowser.open(server.joinURL(room: room, token: try server.token(permissions: [.allowJoin, .allowMod]), name: "Host"))
        let guest = try guestBrowser.open(server.joinURL(room: room, token: try server.token(), name: "Guest"))
        let bothIn = Poll.until(40) { (server.rooms.activeParticipants(roomID: room)?.count ?? 0) == 2 }
        try #require(bothIn, "the pages did not join")
        func visible(_ page: HeadlessChromium.Page, _ id: String) throws -> Bool {
            try page.evaluate("(() => { const e = document.getElementById('\(id)'); return !!e && getComputedStyle(e).display !== 'none'; })()") as? Bool == true
        }
        #expect(try visible(host, "record") && visible(host, "goLive"))
        #expect(try !visible(guest, "record") && !visible(guest, "goLive"), "a guest was offered the host's buttons")
        #expect(try !visible(host, "rec") && !visible(guest, "rec"))

        _ = try host.evaluate("document.getElementById('record').click()")
        let recOnBoth = try Poll.until(60) { try visible(host, "rec") && visible(guest, "rec") }
        let hostState = ConsolePageDriver(tab: host).describe("[window.revue.recording, window.revue.errors]")
        #expect(recOnBoth, "REC did not show on both pages: host \(hostState)")
        let job = try #require(try server.api.store.activeJob(kind: .recording, roomID: room))
        #expect(try host.evaluate("document.getElementById('record').textContent") as? String == "Stop recording")
        if let directory = ProcessInfo.processInfo.environment["REVUE_CONSOLE_SCREENSHOTS"] {
            _ = try Poll.until(10) { try host.evaluate("document.querySelectorAll('.tile video').length > 0 && document.querySelector('.tile video').videoWidth > 0") as? Bool == true }
            try Data(try host.screenshot()).write(to: URL(fileURLWithPath: directory + "/join-page-recording.png"))
        }
        // A second Record from the guest's page would be refused (no allow_mod); the host stops it.
        _ = try guest.evaluate("window.revue.errors = []; document.getElementById('record').click()")
        let refused = try Poll.until(10) { (try guest.evaluate("window.revue.errors.length") as? Int ?? 0) > 0 }
        #expect(refused, "the guest's start was not refused")
        #expect((try guest.evaluate("document.getElementById('log').textContent") as? String ?? "").contains("could not"))

        _ = try host.evaluate("document.getElementById('record').click()")
        let recGone = try Poll.until(60) { try !visible(host, "rec") && !visible(guest, "rec") }
        #expect(recGone, "REC stayed after the recording stopped")
        let stopped = Poll.until(30) { (try? server.api.store.job(job.id))??.state == .stopped }
        #expect(stopped, "the recording did not stop")
    }
}

/// The console page as the tests drive it, over any tab that evaluates JavaScript.
struct ConsolePageDriver {
    let tab: any BrowserTab

    /// Waits (20 s by default) for an expression to be true.
    @discardableResult
    func waitFor(_ condition: String, timeout: Double = 20) throws -> Bool {
        try Poll.until(timeout) { try tab.evaluate("!!(\(condition))") as? Bool == true }
    }

    /// An element's text ("" when there is none, or the tab does not answer).
    func text(_ id: String) -> String {
        (try? tab.evaluate("(document.getElementById('\(id)') || {}).textContent || ''")) as? String ?? ""
    }

    /// What an expression gives, in words, for failure messages.
    func describe(_ expression: String) -> String {
        ((try? tab.evaluate("JSON.stringify(\(expression))")) as? String) ?? "nothing"
    }

    /// Fills the form and signs in; returns the login error shown, if any ("" once signed in).
    func signIn(key: String = "", secret: String = "", token: String = "") throws -> String {
        _ = try tab.evaluate("""
            document.getElementById('loginError').textContent = '';
            document.getElementById('apiKey').value = \(Self.quoted(key)); document.getElementById('apiSecret').value = \(Self.quoted(secret));
            document.getElementById('token').value = \(Self.quoted(token)); document.getElementById('login').requestSubmit()
            """)
        // The words are read in the same poll that sees them (a tab slow to answer under load
        // once gave "" on a second read), and a sign-in that never answers says so.
        var shown = ""
        let answered = Poll.until(30) {
            shown = text("loginError")
            return !shown.isEmpty || (try? tab.evaluate("!document.getElementById('now').hidden")) as? Bool == true
        }
        return answered ? shown : "no answer to the sign-in within 30 s"
    }

    static func quoted(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }
}
