import Composite
import JobSpec
import Media
import MediaSource
import Pipeline
import Testing

/// The composer's own accounting: a picture that comes after the output frame it falls on is
/// shown late and counted, so a recording's log says when a receive path or a loaded machine
/// fell behind the playout delay; and the layout the events already here will make.
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

    /// Events scheduled but not yet on a frame are in the anticipated layout (the recorder asks
    /// for camera layers from it); a published share counts once it has a picture, as on the
    /// frame, and a leave takes its tile away before the frame it falls on.
    @Test func theAnticipatedLayoutHasTheEventsAlreadyHere() throws {
        let ada = ParticipantDescription(id: "ada", name: "Ada", tracks: [Self.camera])
        let composer = try RoomComposer(config: RecordingConfig(quality: .med), participants: [ada], text: TextRenderer())
        func cameras() -> [String] {
            (composer.anticipatedLayout()?.tiles ?? []).filter { $0.content == .camera }.map { "\($0.participantID) \($0.rect.width)" }
        }
        let alone = cameras()
        #expect(alone.count == 1 && alone[0].hasPrefix("ada "), "\(alone)")
        let benCamera = TrackDescription(kind: .video, ssrc: 21, codec: .vp8, payloadType: 96, clockRate: 90_000)
        composer.schedule(.join(ParticipantDescription(id: "ben", name: "Ben", tracks: [benCamera])), at: 2)
        #expect(cameras().count == 2 && !cameras().contains(alone[0]), "\(cameras())")
        let share = TrackDescription(kind: .share, ssrc: 22, codec: .vp8, payloadType: 96, clockRate: 90_000)
        composer.schedule(.publish(participantID: "ben", track: share), at: 2.5)
        let beforePicture = composer.anticipatedLayout()?.tiles.contains { $0.content == .screenShare }
        composer.add(picture: VideoFrame(width: 64, height: 36, mediaTime: 2.6), ssrc: 22)
        let afterPicture = composer.anticipatedLayout()?.tiles.contains { $0.content == .screenShare }
        #expect(beforePicture == false && afterPicture == true)
        composer.schedule(.leave(participantID: "ben"), at: 3)
        #expect(cameras() == alone)
        // Frames up to 2.2 s apply Ben's join; his leave is still to come, and already in the
        // anticipated layout.
        composer.add(picture: VideoFrame(width: 64, height: 36, mediaTime: 0.02), ssrc: 11)
        try composer.advance(until: 2.2)
        #expect(composer.eventsApplied == 1 && cameras() == alone, "\(composer.eventsApplied) \(cameras())")
    }
}
