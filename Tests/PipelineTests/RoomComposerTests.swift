import Composite
import JobSpec
import Media
import MediaSource
import Pipeline
import Testing

/// The composer's own accounting: a picture that comes after the output frame it falls on is
/// shown late and counted, so a recording's log says when a receive path or a loaded machine
/// fell behind the playout delay.
@Suite struct RoomComposerTests {
    static let camera = TrackDescription(kind: .video, ssrc: 11, codec: .vp8, payloadType: 96, clockRate: 90_000)

    @Test func aPictureAfterItsOutputFrameIsCountedLate() throws {
        let ada = ParticipantDescription(id: "ada", name: "Ada", tracks: [Self.camera])
        let composer = try RoomComposer(config: RecordingConfig(quality: .low), participants: [ada], text: TextRenderer())
        composer.add(picture: VideoFrame(width: 64, height: 36, mediaTime: 0.02), ssrc: 11)
        try composer.advance(until: 0.2)
        #expect(composer.videoFrames == 6)
        #expect(composer.latePictures == 0, "a picture before its frame is on time")
        // Frames 0 to 5 are made (up to 0.183 s); a picture of 0.1 s should have been on frame 3.
        composer.add(picture: VideoFrame(width: 64, height: 36, mediaTime: 0.1), ssrc: 11)
        #expect(composer.latePictures == 1)
        #expect(abs(composer.worstPictureLateness - (5.5 / 30 - 0.1)) < 1e-9)
        // One for frame 6 (0.2 s) is not late.
        composer.add(picture: VideoFrame(width: 64, height: 36, mediaTime: 0.2), ssrc: 11)
        #expect(composer.latePictures == 1)
    }
}
