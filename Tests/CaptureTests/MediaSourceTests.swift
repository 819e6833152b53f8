import Foundation
import Media
import Capture
import TestSupport
import Testing

/// The publisher's cameras and microphones: the synthetic ones, y4m and wav files as ffmpeg
/// writes them, and video files FFmpeg reads.
@Suite struct MediaSourceTests {
    /// A stereo wav opened `stereo` gives interleaved frames (left, right) and says 2 channels;
    /// opened plainly, the same file is its mono mix. `samples(from:count:channels:)` doubles a
    /// mono source and averages a stereo one, so a publisher gets what its encoder takes.
    @Test func aStereoWAVIsReadAsStereoOrMixedToMono() throws {
        let directory = try TemporaryDirectory(prefix: "stereo-wav")
        let path = directory.file("lr.wav")
        // 16-bit PCM, four frames: (0.5, -0.5), (0.25, 0.75), …
        try WAVFile.write([0.5, -0.5, 0.25, 0.75, 0, 0, -1, 1], channels: 2, float: false, to: path)
        let stereo = try WAVFileMicrophone(path: path, stereo: true)
        #expect(stereo.channels == 2)
        let read = stereo.samples(from: 1, count: 4)
        #expect(read.count == 8 && abs(read[0] - 0.25) < 0.001 && abs(read[1] - 0.75) < 0.001 && abs(read[6] - 0.5) < 0.001, "\(read)")
        #expect(stereo.samples(from: 0, count: 1, channels: 1).map { abs($0) < 0.001 } == [true])
        let mono = try WAVFileMicrophone(path: path)
        #expect(mono.channels == 1 && abs(mono.samples(from: 1, count: 1)[0] - 0.5) < 0.001)
        #expect(mono.samples(from: 1, count: 2, channels: 2).count == 4)
        #expect(mono.samples(from: 1, count: 1, channels: 2) == [mono.samples(from: 1, count: 1)[0], mono.samples(from: 1, count: 1)[0]])
    }

    @Test func theTestPatternIsItsColourWithAMovingSquareAndTheName() throws {
        let camera = try TestPatternCamera(name: "Ada Lovelace", rgb: 0xD02020, format: .h360p_w640p)
        let first = camera.frame(0), later = camera.frame(30)
        let red = YUVColor(rgb: 0xD02020)
        #expect(first.width == 640 && first.height == 360 && later.mediaTime == 1)
        #expect(first.pixel(x: 320, y: 72).distance(to: red) == 0)
        // The square starts at the left and moves 120 px a second.
        #expect(first.pixel(x: 20, y: 180) == .white && first.pixel(x: 140, y: 180).distance(to: red) == 0)
        #expect(later.pixel(x: 140, y: 180) == .white && later.pixel(x: 20, y: 180).distance(to: red) == 0)
        // The name is drawn in the bottom left: brighter pixels there than the background.
        let bright = (15..<200).filter { x in (320..<350).contains { y in first.pixel(x: x, y: y).y > red.y + 60 } }
        #expect(bright.count > 40, "\(bright.count) columns of text")
    }

    @Test func aToneHasItsFrequencyAndItsCycle() {
        let tone = ToneMicrophone(frequency: 1000, amplitude: 0.5, cycle: (period: 2, on: 0..<1))
        let on = tone.samples(from: 0, count: 48_000)
        let off = tone.samples(from: 48_000, count: 48_000)
        #expect(Goertzel.prominence(of: on[...], frequency: 1000) > 20)
        #expect(off.allSatisfy { $0 == 0 })
        // Positions are exact wherever they start.
        #expect(tone.samples(from: 100, count: 10) == Array(on[100..<110]))
    }

    @Test func y4mAndWavFilesPlayLooped() throws {
        let directory = try TemporaryDirectory(prefix: "publisher-files")
        let video = directory.file("clip.y4m"), audio = directory.file("clip.wav")
        let made = try Tool.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=0x2040D0:s=320x180:r=25", "-t", "0.4",
                                           "-pix_fmt", "yuv420p", video])
        #expect(made.status == 0, "\(made.standardError)")
        let sound = try Tool.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=500:sample_rate=48000", "-t", "0.5",
                                            "-ac", "2", audio])
        #expect(sound.status == 0, "\(sound.standardError)")
        let camera = try Y4MFileCamera(path: video)
        #expect(camera.format == CameraFormat(width: 320, height: 180, framesPerSecond: 25) && camera.frameCount == 10)
        let picture = camera.frame(13)
        #expect(picture.pixel(x: 10, y: 10).distance(to: YUVColor(rgb: 0x2040D0)) < 4 && picture.mediaTime == 13.0 / 25)
        let microphone = try WAVFileMicrophone(path: audio)
        #expect(microphone.mono.count == 24_000)
        #expect(microphone.samples(from: 24_000, count: 5) == Array(microphone.mono.prefix(5)))
        #expect(Goertzel.prominence(of: microphone.mono[...], frequency: 500) > 20)
        #expect(throws: (any Error).self) { try Y4MFileCamera(path: audio) }
        #expect(throws: (any Error).self) { try WAVFileMicrophone(path: video) }
    }

    /// Files FFmpeg reads: an H.264 MP4 and a VP8 WebM of red then blue, half a second
    /// each at 25 fps, played at 30 fps, scaled, looped with the times carrying on.
    @Test(arguments: [("clip.mp4", "libx264"), ("clip.webm", "libvpx")])
    func mediaFilesPlayLoopedAtTheTracksRate(_ name: String, _ encoder: String) throws {
        let directory = try TemporaryDirectory(prefix: "publisher-media-files")
        let path = directory.file(name)
        let made = try Tool.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=0xD02020:s=320x180:r=25:d=0.5",
                                           "-f", "lavfi", "-i", "color=c=0x2040D0:s=320x180:r=25:d=0.5",
                                           "-filter_complex", "[0:v][1:v]concat=n=2:v=1:a=0", "-c:v", encoder, "-pix_fmt", "yuv420p", path])
        #expect(made.status == 0, "\(made.standardError)")
        let camera = try MediaFileCamera(path: path, format: CameraFormat(width: 160, height: 90, framesPerSecond: 30))
        let red = YUVColor(rgb: 0xD02020), blue = YUVColor(rgb: 0x2040D0)
        // Seconds 0.2 and 0.7 of the first pass, then the same of the second and the third.
        for (pass, offset) in [(0, 0.0), (1, 1.0), (2, 2.0)] {
            let early = camera.frame(Int((offset + 0.2) * 30)), late = camera.frame(Int((offset + 0.7) * 30))
            #expect(early.width == 160 && early.height == 90)
            #expect(early.pixel(x: 80, y: 45).distance(to: red) < 12, "pass \(pass) at 0.2 s: \(early.pixel(x: 80, y: 45))")
            #expect(late.pixel(x: 80, y: 45).distance(to: blue) < 12, "pass \(pass) at 0.7 s: \(late.pixel(x: 80, y: 45))")
            #expect(late.mediaTime == Double(Int((offset + 0.7) * 30)) / 30)
        }
        // Its own size at 30 fps when none is given; what is not a video file is refused.
        #expect(try MediaFileCamera(path: path).format == CameraFormat(width: 320, height: 180, framesPerSecond: 30))
        let text = directory.file("notes.txt")
        try "not a video".write(toFile: text, atomically: true, encoding: .utf8)
        #expect(throws: MediaFileCamera.OpenError.self) { try MediaFileCamera(path: text) }
        #expect(throws: MediaFileCamera.OpenError.self) { try MediaFileCamera(path: directory.file("missing.mp4")) }
    }

    /// Sound files FFmpeg reads, resampled to mono 48 kHz: AAC at 44.1 kHz stereo and
    /// Opus in WebM, half a second of 500 Hz each.
    @Test(arguments: [("clip.m4a", ["-c:a", "aac", "-ar", "44100", "-ac", "2"]), ("clip.webm", ["-c:a", "libopus", "-ac", "1"])])
    func soundFilesAreResampledAndLooped(_ name: String, _ codec: [String]) throws {
        let directory = try TemporaryDirectory(prefix: "publisher-sound-files")
        let path = directory.file(name)
        let made = try Tool.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=500:sample_rate=48000", "-t", "0.5"]
            + codec + [path])
        #expect(made.status == 0, "\(made.standardError)")
        let microphone = try MediaFileMicrophone(path: path)
        // Played as a publisher plays it: 20 ms at a time, past the file's end.
        let played = stride(from: 0, to: 60_000, by: 960).flatMap { microphone.samples(from: $0, count: 960) }
        // Half a second, give or take the codec's priming and padding.
        let length = try #require(microphone.loopLength)
        #expect(abs(length - 24_000) < 2_400, "\(length) samples")
        #expect(Goertzel.prominence(of: played[2_400..<21_600], frequency: 500) > 20)
        #expect(Array(played[length..<(length + 5)]) == Array(played.prefix(5)), "looped")
        #expect(microphone.samples(from: 100, count: 5) == Array(played[100..<105]), "asked again for what has been played")
        #expect(microphone.samples(from: 2 * length + 7, count: 5) == Array(played[7..<12]), "a later pass")
        #expect(throws: MediaFileMicrophone.OpenError.self) { try MediaFileMicrophone(path: directory.file("missing.mp3")) }
    }

    /// A long file opens and plays: 11 minutes of Opus (a microphone that decoded the whole file
    /// at open refused more than 10), its last half minute read as a publisher reaches it.
    @Test func aLongFilePlaysWithoutBeingDecodedWhole() throws {
        let directory = try TemporaryDirectory(prefix: "publisher-long-sound")
        let path = directory.file("long.webm")
        let made = try Tool.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=700:sample_rate=48000", "-t", "660",
                                           "-c:a", "libopus", "-b:a", "16k", "-ac", "1", path])
        #expect(made.status == 0, "\(made.standardError)")
        let opened = ContinuousClock.now
        let microphone = try MediaFileMicrophone(path: path)
        let openTook = ContinuousClock.now - opened
        #expect(microphone.loopLength == nil, "nothing past the first block is decoded at open")
        print("measured: 11 minutes of Opus opened in \(openTook)")
        // Straight to 10 min 30 s (a publisher that starts there reads forward to it).
        let late = microphone.samples(from: 630 * 48_000, count: 48_000)
        #expect(Goertzel.prominence(of: late[...], frequency: 700) > 20)
    }
}
