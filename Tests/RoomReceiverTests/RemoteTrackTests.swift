import Media
@testable import RoomReceiver
import Synchronization
import Testing

/// What a receiver hands out per remote track: counters that follow the decoded pictures and
/// sound, and handlers that get them.
@Suite struct RemoteTrackTests {
    /// What a handler saw, shared with the receiver's thread.
    final class Seen: Sendable {
        let sizes = Mutex<[String]>([])
        let samples = Mutex(0)
        let frames = Mutex<[ReceivedVideoFrame]>([])
    }

    @Test func picturesAreCountedWithTheLastSizeAndHandedToTheHandler() {
        let track = RemoteTrack(participantID: "alice", kind: .video)
        track.deliver(pictures: [VideoFrame(width: 320, height: 180)])
        let seen = Seen()
        track.setPictureHandler { picture in seen.sizes.withLock { $0.append("\(picture.width)x\(picture.height)") } }
        track.deliver(pictures: [VideoFrame(width: 640, height: 360), VideoFrame(width: 640, height: 360)])
        track.deliver(pictures: [])
        let counted = track.statistics
        #expect(counted.framesDecoded == 3 && counted.frameWidth == 640 && counted.frameHeight == 360)
        #expect(seen.sizes.withLock { $0 } == ["640x360", "640x360"], "only pictures after the handler was set")
        track.setPictureHandler(nil)
        track.deliver(pictures: [VideoFrame(width: 2, height: 2)])
        #expect(seen.sizes.withLock { $0.count } == 2 && track.statistics.frameWidth == 2)
    }

    @Test func soundGoesToTheHandlerAndCountersToUpdate() {
        let track = RemoteTrack(participantID: "alice", kind: .audio)
        let seen = Seen()
        track.setSoundHandler { chunk in seen.samples.withLock { $0 += chunk.frameCount } }
        track.deliver(sound: [AudioChunk(samples: [Float](repeating: 0, count: 1920), channels: 2, mediaTime: 0)])
        track.update { $0.samplesDecoded = 960 }
        #expect(seen.samples.withLock { $0 } == 960)
        #expect(track.statistics.samplesDecoded == 960 && track.statistics.framesDecoded == 0)
    }

    @Test func theFrameObserverSeesEachFrameUntilItIsCleared() {
        let track = RemoteTrack(participantID: "alice", kind: .video)
        let first = ReceivedVideoFrame(rtpTimestamp: 90_000, arrivalTime: 1.5, size: 1_200, isKeyframe: true, temporalLayerID: 0, layerSync: true)
        track.observe(first)
        let seen = Seen()
        track.setFrameObserver { frame in seen.frames.withLock { $0.append(frame) } }
        let second = ReceivedVideoFrame(rtpTimestamp: 93_000, arrivalTime: 1.53, size: 300, isKeyframe: false, temporalLayerID: 1, layerSync: true)
        track.observe(second)
        track.setFrameObserver(nil)
        track.observe(first)
        #expect(seen.frames.withLock { $0 } == [second])
    }
}
