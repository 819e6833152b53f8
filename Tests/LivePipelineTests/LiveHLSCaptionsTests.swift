import Foundation
import JobSpec
import Jobs
import Platform
import Speech
import TestSupport
import Testing

/// The room's live transcription inside its live HLS stream: a transcription job and an HLS job
/// of the same room, two `revue publish --mic FILE` participants taking turns, and hls.js in
/// Chromium playing `live_master.m3u8` with the captions turned on. The captions are where the
/// speech is in the stream: hls.js puts each cue where the WebVTT segments do, and those times
/// are where `revue transcribe` hears the same words in the stream's own audio.
extension LivePipelineSuites {
    @Suite(.browser, .timeLimit(.minutes(10))) struct LiveHLSCaptionsTests {
        static let names = ["Alice", "Bob"]

        @Test func hlsJSShowsTheRoomsCaptionsInTheLiveStream() throws {
            let server = try RoomServerHarness()
            server.startWorker()
            defer { server.stopWorker() }
            let room = try server.makeRoom()
            let media = try TemporaryDirectory(prefix: "hls-captions")
            let sentences = Array(SpokenConversation.sentences.prefix(12))
            let turns = sentences.enumerated().map { (speaker: $0.offset % 2, text: $0.element) }
            let (tracks, lines) = try SpokenConversation.layOut(turns, speakers: 2, gap: 1.2, lead: 2.0)
            for (index, track) in tracks.enumerated() { try SpokenConversation.writeWAV(track, to: media.file("speaker-\(index).wav")) }
            let spoken = Double(tracks[0].count) / 16_000

            let transcription = try server.startJob(.transcription, room: room, timeout: 60)
            let hls = try server.startJob(.hls, room: room, until: .playable)
            defer { print("HLS recorder log:\n" + server.attemptLog(hls)) }
            let view = try server.call("GET", "/v2/hls/\(hls.idText)")
            let captionsURL = try #require(view.json["captions"]?["livestreamUrl"]?.stringValue, "\(view.json.text)")
            #expect(captionsURL.contains("/live_master.m3u8") && view.json["captions"]?["language"]?.stringValue == "en")
            let part = try #require(try server.api.store.job(hls.id)?.parts.first { $0.kind == .hls })

            let page = try HLSJSPage(serving: server, playlist: part.path + "/live_master.m3u8")

            let publishers = try (0..<2).map { index in
                try server.micPublisher(room: room, name: Self.names[index], wav: media.file("speaker-\(index).wav"), seconds: spoken,
                                        log: media.file("publish-\(index).log"))
            }
            for (index, publisher) in publishers.enumerated() {
                #expect(RoomServerHarness.publisherFailure(publisher, timeout: spoken + 30, log: media.file("publish-\(index).log")) == nil)
            }
            // The player is some segments behind the live edge: it shows the last lines a little later.
            var shown: [Shown] = []
            let last = lines.last?.text ?? ""
            _ = try Poll.until(30) {
                shown = try Self.shown(page.tab)
                return shown.contains { Self.similarity($0.text, last) > 0.5 }
            }
            let fragments = (try page.tab.evaluate("JSON.stringify(window.fragments())") as? String).flatMap { $0.data(using: .utf8) }
                .flatMap { try? JSONSerialization.jsonObject(with: $0) as? [[Double]] } ?? []
            let state = try page.tab.evaluate("JSON.stringify(window.state())") as? String ?? ""
            // The room ended when its last participant left, and both jobs with it.
            for job in [hls, transcription] {
                let ended = Poll.until(60) { (try? server.api.store.job(job.id)?.state) == .stopped }
                #expect(ended, "\(job.kind) is \(String(describing: try? server.api.store.job(job.id)?.state))")
            }

            // hls.js showed the captions, by their speakers.
            let directory = server.storage.path + "/" + part.path
            let heard = SpokenConversation.sort(shown, text: { Self.plain($0.text) }, into: lines, threshold: 0.3)
            let captioned = zip(lines, heard).filter { line, cues in !cues.isEmpty && cues.allSatisfy { $0.text.hasPrefix("<v \(Self.names[line.speaker])>") } }
            print("hls.js: \(state); showed \(Set(shown.map(\.text)).count) captions for \(lines.count) sentences, \(captioned.count) attributed; "
                + "first: \(shown.first.map { "\($0.text) at \($0.at)" } ?? "none")")
            #expect(captioned.count >= lines.count * 3 / 4, "\(shown.map(\.text))")
            #expect(shown.allSatisfy { $0.kind == "subtitles" && $0.language == "en" })

            // hls.js placed each cue where the segments put it: the player's timeline plus the
            // offset of a loaded segment (its start in the playlist) is the cue's media time.
            let index = try String(contentsOfFile: directory + "/index.m3u8", encoding: .utf8)
            let mediaStarts = Self.segmentStarts(index)
            let fileCues = try Self.cuesInSegments(directory)
            if let fragment = fragments.first, fragment.count == 2, Int(fragment[0]) < mediaStarts.count {
                let offset = mediaStarts[Int(fragment[0])] - fragment[1]
                let placed = Set(shown.map(\.text)).compactMap { text -> Double? in
                    guard let cue = shown.first(where: { $0.text == text }), let file = fileCues.first(where: { $0.text == text }) else { return nil }
                    return cue.start + offset - file.start
                }
                print("hls.js cue time − segment cue time: \(placed.map { String(format: "%+.3f", $0) })")
                #expect(!placed.isEmpty && placed.allSatisfy { abs($0) <= 0.1 })
            } else {
                Issue.record("no fragments from hls.js: \(fragments)")
            }

            // The segments' cues are where the words are in the stream's own audio.
            let run = try Subprocess.run(RevueBinary.path, ["transcribe", directory + "/index.m3u8", "--format", "json", "--log-level", "warning"])
            #expect(run.succeeded, "\(run.standardError)")
            let inStream = try JSONDecoder().decode(TranscriptFile.self, from: Data(run.standardOutput.utf8))
            var offsets: [Double] = []
            for cue in fileCues {
                let plain = Self.plain(cue.text)
                guard let match = inStream.segments.max(by: { Self.similarity($0.text, plain) < Self.similarity($1.text, plain) }),
                      Self.similarity(match.text, plain) > 0.6
                else { continue }
                offsets.append(cue.start - match.start)
            }
            print("caption vs stream audio starts: \(offsets.map { String(format: "%+.2f", $0) })")
            #expect(offsets.count >= lines.count / 2, "\(offsets.count) of \(lines.count) captions matched")
            // Placed through the speaker's own clock (`Caption.senderClock`); through the wall
            // clock they had been up to 0.31 s late, by each receiver's delay estimate.
            #expect(offsets.allSatisfy { abs($0) <= 0.15 })
        }

        struct Shown {
            var text: String
            var start: Double
            var at: Double
            var kind: String
            var language: String
        }

        static func shown(_ tab: HeadlessChromium.Page) throws -> [Shown] {
            let json = try tab.evaluate("JSON.stringify(window.shown)") as? String ?? "[]"
            let objects = (try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]) ?? []
            return objects.map {
                Shown(text: $0["text"] as? String ?? "", start: $0["start"] as? Double ?? -1, at: $0["at"] as? Double ?? -1,
                      kind: $0["kind"] as? String ?? "", language: $0["language"] as? String ?? "")
            }
        }

        /// Each segment's media start: the durations before it (the stream starts at media time 0).
        static func segmentStarts(_ playlist: String) -> [Double] {
            var starts: [Double] = []
            var time = 0.0
            for line in playlist.split(separator: "\n") where line.hasPrefix("#EXTINF:") {
                starts.append(time)
                time += Double(line.dropFirst(8).split(separator: ",").first ?? "") ?? 0
            }
            return starts
        }

        /// The cues of every captions segment, once each (by text), with their start.
        static func cuesInSegments(_ directory: String) throws -> [(text: String, start: Double)] {
            var cues: [(text: String, start: Double)] = []
            let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".vtt") }.sorted()
            for name in names {
                let text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
                for block in text.components(separatedBy: "\n\n").dropFirst() {
                    let lines = block.split(separator: "\n").map(String.init)
                    guard lines.count == 3, let timing = lines[1].components(separatedBy: " --> ").first else { continue }
                    if !cues.contains(where: { $0.text == lines[2] }) { cues.append((lines[2], Self.seconds(timing))) }
                }
            }
            return cues
        }

        static func seconds(_ timestamp: String) -> Double {
            timestamp.split(separator: ":").reduce(0) { $0 * 60 + (Double($1) ?? 0) }
        }

        /// Words alike, with the cue's voice span left out.
        static func similarity(_ a: String, _ b: String) -> Double {
            SpokenConversation.similarity(plain(a), plain(b))
        }

        static func plain(_ cue: String) -> String { cue.replacingOccurrences(of: #"<[^>]*>"#, with: "", options: .regularExpression) }
    }
}
