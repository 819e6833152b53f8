import Foundation
import JobSpec
import Jobs
import Media
import Capture
import Outputs
import Publisher
import TestSupport
import Testing

/// A per-participant recording of a live room (issue 26 item 5), started through the REST API
/// and run by a worker: two of Revue's own publishers, one playing the flash-and-beep clip and
/// one a green test pattern with a 660 Hz tone. Each participant's files hold their own picture
/// and sound, and the clip's video and audio files, each moved by its `start` in the manifest,
/// put every flash within one frame of its beep on the room's clock.
extension LivePipelineSuites {
    @Suite(.live, .timeLimit(.minutes(10))) struct LiveTrackRecordingTests {
        @Test func eachParticipantsFilesAreTheirOwnAndLineUp() throws {
            let server = try RoomServerHarness()
            server.startWorker()
            defer { server.stopWorker() }
            let room = try server.makeRoom()
            let media = try TemporaryDirectory(prefix: "track-record")
            let clip = try FlashBeepClip.make(in: media)
            let signaling = "ws://127.0.0.1:\(server.port)/v2/rtc"
            let flashBeep = try RoomPublisher(configuration: .init(signalingURL: signaling, roomID: room, token: try server.token(),
                                                                   participantName: "Flash Beep", camera: try Y4MFileCamera(path: clip.video),
                                                                   microphone: try WAVFileMicrophone(path: clip.audio)))
            defer { flashBeep.leave() }
            let green = try RoomPublisher(configuration: .init(signalingURL: signaling, roomID: room, token: try server.token(), participantName: "Green",
                                                               camera: try TestPatternCamera(name: "", rgb: 0x30A050), microphone: ToneMicrophone(frequency: 660)))
            defer { green.leave() }
            #expect(flashBeep.waitUntilPublishing(timeout: 15) && green.waitUntilPublishing(timeout: 15),
                    "\(flashBeep.failure ?? "") \(green.failure ?? "")")

            let job = try server.startJob(.recording, room: room, config: ["mode": .string("tracks")])
            let directory = try #require(job.parts.first { $0.kind == .tracks }.map { server.storage.path + "/" + $0.path }, "\(job.parts)")
            // Four flashes and beeps after the files start: the manifest grows as they do.
            let grown = Poll.until(40) { (TrackManifest.read(directory: directory)?.tracks.filter { $0.end - $0.start >= 9 }.count ?? 0) >= 4 }
            #expect(grown, "\(String(describing: TrackManifest.read(directory: directory)))")
            let stopped = try server.stopJob(job)
            let manifest = try #require(TrackManifest.read(directory: directory), "\(server.attemptLog(job))")
            #expect(stopped.state == .stopped && manifest.complete && manifest.roomId == room)
            func track(_ participantID: String, _ kind: String) throws -> TrackManifest.Track {
                try #require(manifest.tracks.first { $0.participantId == participantID && $0.kind == kind }, "\(manifest.tracks)")
            }
            let flashVideo = try track(flashBeep.participantID, "video"), flashAudio = try track(flashBeep.participantID, "audio")
            let greenVideo = try track(green.participantID, "video"), greenAudio = try track(green.participantID, "audio")
            #expect(manifest.tracks.count == 4 && manifest.tracks.allSatisfy { $0.complete }, "\(manifest.tracks.map { $0.file })")
            #expect(flashVideo.name == "Flash Beep" && greenVideo.codec == "VP8" && greenAudio.codec == "opus", "\(manifest.tracks)")

            // Green's own picture and tone, and none of the clip's beep.
            let picture = try MediaSamples.frame(of: directory + "/" + greenVideo.file, at: 4, width: greenVideo.width ?? 640, height: greenVideo.height ?? 360)
            let seen = picture.pixel(x: (greenVideo.width ?? 640) / 2, y: 20)
            #expect(seen.distance(to: YUVColor(rgb: 0x30A050)) <= 20, "green's camera shows \(seen)")
            let greenSound = try MediaSamples.monoAudio(of: directory + "/" + greenAudio.file)
            let middle = greenSound[(2 * 48_000)..<min(greenSound.count, 8 * 48_000)]
            #expect(Goertzel.prominence(of: middle, frequency: 660) > 15 && Goertzel.prominence(of: middle, frequency: 1000) < 6)

            // The clip's flashes and beeps, each on the room's clock.
            let flashes = FlashBeepClip.flashes(try MediaSamples.lumaPerFrame(of: directory + "/" + flashVideo.file)).map { $0 + flashVideo.start }
            let beeps = FlashBeepClip.beeps(try MediaSamples.monoAudio(of: directory + "/" + flashAudio.file)).map { $0 + flashAudio.start }
            let first = max(flashVideo.start, flashAudio.start) + 0.2
            let pairs = flashes.filter { $0 > first }.compactMap { flash in
                beeps.min { abs($0 - flash) < abs($1 - flash) }.map { (flash: flash, beep: $0) }
            }
            print("measured: per-track flash-beep offsets on the room's clock (beep minus flash, ms) "
                + pairs.map { String(format: "%+.1f", ($0.beep - $0.flash) * 1000) }.joined(separator: ", ")
                + String(format: "; video starts at %.3f s, audio at %.3f s", flashVideo.start, flashAudio.start))
            #expect(pairs.count >= 4, "flashes \(flashes), beeps \(beeps)")
            // One frame at 30 fps; the first second two, as the composite's live test allows
            // while the participant's clock offset still settles.
            for (flash, beep) in pairs {
                #expect(abs(beep - flash) <= (flash - first < 1.3 ? 0.0667 : 0.0334), "flash at \(flash) s, beep at \(beep) s")
            }
        }
    }
}
