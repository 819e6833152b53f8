@testable import Pipeline
import Testing

/// `PauseGate`: which pictures and audio blocks a pause drops, and how audio follows video.
@Suite struct PauseGateTests {
    /// 30 fps pictures and 1024-sample blocks through three pauses of odd lengths: whatever the
    /// pauses, the audio dropped stays within half a block of the video dropped.
    @Test func audioFollowsTheVideoDroppedToWithinHalfABlock() {
        var gate = PauseGate(framesPerSecond: 30, audioBlock: 1024, hasVideo: true)
        let spans: [(Double, Double)] = [(1.37, 2.71), (4.213, 4.52), (7.05, 8.6), (9.001, 9.002)]
        var frame = 0, block = 0, silence = 0, encodedFrames = 0, encodedSamples = 0
        while Double(frame) / 30 < 12 {
            let pictureTime = Double(frame) / 30, audioTime = Double(block * 1024) / 48_000
            let now = min(pictureTime, audioTime)
            for (start, end) in spans {
                if now >= start && !gate.isPaused && now < end { _ = gate.pause(at: now) }
                if now >= end && gate.isPaused, gate.pausedSince == start || gate.pausedSince.map({ $0 < end }) == true { _ = gate.resume(at: now) }
            }
            if pictureTime <= audioTime {
                if gate.admitPicture(at: pictureTime) { encodedFrames += 1 }
                frame += 1
            } else {
                switch gate.admitAudio(at: audioTime) {
                case .encode: encodedSamples += 1024
                case .drop: break
                case .encodeAfterSilence(let blocks):
                    silence += blocks
                    encodedSamples += 1024 * (blocks + 1)
                }
                block += 1
                // The two outputs end within half a block of each other, after every block.
                let video = encodedFrames * 1600
                #expect(abs(encodedSamples - video) <= 512 + 1600, "at \(audioTime): audio \(encodedSamples), video \(video)")
            }
        }
        let droppedVideo = Double(gate.videoFramesDropped) / 30
        #expect(abs(droppedVideo - (1.34 + 0.307 + 1.55)) < 0.15, "\(droppedVideo)")
        #expect(abs(Double(gate.audioSamplesDropped) - droppedVideo * 48_000) <= 512)
        #expect(abs(gate.secondsDropped - droppedVideo) < 1e-9)
        print("measured: \(gate.videoFramesDropped) frames dropped, \(gate.audioSamplesDropped) samples net, \(silence) blocks of silence")
    }

    @Test func aPictureOrBlockMadeAfterTheResumeStillFallsInThePause() {
        var gate = PauseGate(framesPerSecond: 30, audioBlock: 1024, hasVideo: true)
        #expect(gate.pause(at: 2) && !gate.pause(at: 2.5))
        #expect(gate.resume(at: 3) == 1 && gate.resume(at: 3.1) == nil)
        #expect(!gate.admitPicture(at: 2.99) && gate.admitPicture(at: 3.0))
        #expect(gate.isPaused(at: 2.5) && !gate.isPaused(at: 1.99) && !gate.isPaused(at: 3))
    }

    @Test func audioOnlyDropsTheBlocksInAPause() {
        var gate = PauseGate(framesPerSecond: 30, audioBlock: 1024, hasVideo: false)
        _ = gate.pause(at: 1)
        #expect(gate.admitAudio(at: 0.99) == .encode && gate.admitAudio(at: 1.0) == .drop && gate.admitAudio(at: 1.5) == .drop)
        _ = gate.resume(at: 2)
        #expect(gate.admitAudio(at: 2.0) == .encode)
        #expect(gate.audioSamplesDropped == 2048 && abs(gate.secondsDropped - 2048.0 / 48_000) < 1e-9)
    }
}
