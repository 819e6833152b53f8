import Foundation
import Media
import Mix
import TestSupport
import Testing

@Suite struct AudioMixerTests {
    static func tone(_ frequency: Double, amplitude: Float, seconds: Double, at time: Double, channels: Int = 2) -> AudioChunk {
        let frames = Int(seconds * 48_000)
        var samples: [Float] = []
        samples.reserveCapacity(frames * channels)
        for index in 0..<frames {
            let value = amplitude * Float(sin(2 * Double.pi * frequency * (time + Double(index) / 48_000)))
            for _ in 0..<channels { samples.append(value) }
        }
        return AudioChunk(samples: samples, channels: channels, mediaTime: time)
    }

    @Test func participantsAreSummedAndBothTonesAreThere() {
        let mixer2 = AudioMixer()
        mixer2.add(Self.tone(523, amplitude: 0.3, seconds: 0.5, at: 0), participant: "a")
        mixer2.add(Self.tone(784, amplitude: 0.3, seconds: 0.5, at: 0), participant: "b")
        let mixed = mixer2.mix(frames: 24_000).mixed
        let mono = stride(from: 0, to: mixed.count, by: 2).map { mixed[$0] }
        #expect(Goertzel.prominence(of: mono[...], frequency: 523) > 20)
        #expect(Goertzel.prominence(of: mono[...], frequency: 784) > 20)
    }

    @Test func theLimiterKeepsALoudSumInsideTheCeiling() {
        let mixer = AudioMixer(ceiling: 0.98)
        for participant in ["a", "b", "c"] {
            mixer.add(Self.tone(440, amplitude: 0.9, seconds: 1, at: 0), participant: participant)
        }
        var peak: Float = 0
        for _ in 0..<40 {
            for sample in mixer.mix(frames: 1024).mixed { peak = max(peak, abs(sample)) }
        }
        #expect(peak <= 0.98 + 1e-6)
        #expect(peak > 0.9)
        #expect(mixer.limitedBlocks > 0)
    }

    @Test func missingAudioIsSilenceAndTheTimelineHasNoHoles() {
        let mixer = AudioMixer()
        mixer.add(Self.tone(440, amplitude: 0.5, seconds: 0.1, at: 0), participant: "a")
        mixer.add(Self.tone(440, amplitude: 0.5, seconds: 0.1, at: 0.3), participant: "a")
        var blocks: [[Float]] = []
        for _ in 0..<20 { blocks.append(mixer.mix(frames: 1024).mixed) }
        #expect(blocks.allSatisfy { $0.count == 2048 })
        #expect(mixer.mixedUntil == 20 * 1024)
        let energy = blocks.map { block in block.reduce(0) { $0 + $1 * $1 } }
        #expect(energy[1] > 1) // 21–42 ms: the first tone
        #expect(energy[8] == 0) // 170–192 ms: the gap
        #expect(energy[15] > 1) // 320–341 ms: the second tone
    }

    @Test func jitterInChunkTimesDoesNotOpenGapsOrOverlaps() {
        let mixer = AudioMixer(tolerance: 960)
        // 20 ms chunks whose times wobble by ±5 ms.
        for index in 0..<20 {
            let wobble = index % 2 == 0 ? 0.005 : -0.005
            mixer.add(Self.tone(300, amplitude: 0.5, seconds: 0.02, at: Double(index) * 0.02 + wobble + 0.005), participant: "a")
        }
        let mixed = mixer.mix(frames: 19_200).mixed
        // From the first chunk on, the tone is continuous: no sample run of silence.
        var longestSilence = 0, run = 0
        for index in stride(from: 2 * 480, to: mixed.count, by: 2) {
            run = abs(mixed[index]) < 1e-4 ? run + 1 : 0
            longestSilence = max(longestSilence, run)
        }
        #expect(longestSilence < 10)
    }

    /// A participant's clock offset slews 10 ms later two seconds in (their chunks' times move,
    /// their sound does not): the lane follows within the tolerance, without a jump or a gap, so a
    /// 2 kHz burst said at 3 s comes out part of the way and one said at 8 s at 8.010 s, where the
    /// times put it, not at 8.000. Under them a 97 Hz tone, whose period no chunk boundary
    /// matches: a jump or a gap would be a step far larger than its own 0.004 (the bursts' 0.013).
    @Test func aLastingSmallSlewIsFollowedGentlyAndJitterIsNot() {
        func run(slew: Double, wobble: Double) -> (early: Double, onset: Double, largestStep: Float) {
            let mixer = AudioMixer(tolerance: 960)
            var output: [Float] = []
            for index in 0..<500 {
                let source = Double(index) * 0.02
                var samples: [Float] = []
                for frame in 0..<960 {
                    let time = source + Double(frame) / 48_000
                    var value = 0.3 * Float(sin(2 * Double.pi * 97 * time))
                    for burst in [3.0, 8.0] where time >= burst && time < burst + 0.05 { value += 0.05 * Float(sin(2 * Double.pi * 2000 * (time - burst))) }
                    samples.append(value)
                }
                let shift = (index >= 100 ? slew : 0) + (index % 2 == 0 ? wobble : -wobble)
                mixer.add(AudioChunk(samples: samples, channels: 1, mediaTime: source + shift), participant: "a")
                if index >= 25 {
                    let block = mixer.mix(frames: 960).mixed
                    output += stride(from: 0, to: block.count, by: 2).map { block[$0] }
                }
            }
            // A burst's first sample: where the signal turns faster than the 97 Hz tone can.
            func onset(after seconds: Double) -> Double {
                (Int(seconds * 48_000)..<output.count).first { abs(output[$0] - output[$0 - 1]) > 0.008 }.map { Double($0) / 48_000 } ?? 0
            }
            // Past the first chunk: the largest step from one sample to the next.
            let largestStep = (1000..<output.count).reduce(Float(0)) { max($0, abs(output[$1] - output[$1 - 1])) }
            return (onset(after: 2.5), onset(after: 7.5), largestStep)
        }
        let followed = run(slew: 0.010, wobble: 0)
        #expect(followed.early > 3.0005 && followed.early < 3.0095, "the first burst at \(followed.early) s: part of the way")
        #expect(abs(followed.onset - 8.010) < 0.0015, "the burst at \(followed.onset) s")
        #expect(followed.largestStep < 0.02, "no jump or gap: the largest step \(followed.largestStep)")
        // Alternating ±3 ms of jitter and no slew: the first chunk put the lane 3 ms late; it
        // settles where the times average (the burst at 8.000), never following the wobble.
        let jittered = run(slew: 0, wobble: 0.003)
        #expect(abs(jittered.early - 3.000) < 0.0015 && abs(jittered.onset - 8.000) < 0.0015, "the bursts at \(jittered.early), \(jittered.onset) s")
        #expect(jittered.largestStep < 0.02)
    }

    @Test func lateAudioIsDroppedAndCounted() {
        let mixer = AudioMixer()
        _ = mixer.mix(frames: 4800)
        mixer.add(Self.tone(440, amplitude: 0.5, seconds: 0.05, at: 0.08), participant: "a")
        #expect(mixer.latePieces == 1)
        let next = mixer.mix(frames: 1024).mixed
        #expect(next.contains { $0 != 0 })
    }

    @Test func monoIsPlayedOnBothSides() {
        let mixer = AudioMixer()
        mixer.add(Self.tone(440, amplitude: 0.5, seconds: 0.05, at: 0, channels: 1), participant: "a")
        let mixed = mixer.mix(frames: 1024).mixed
        #expect(stride(from: 0, to: mixed.count, by: 2).allSatisfy { mixed[$0] == mixed[$0 + 1] })
        #expect(mixed.contains { $0 != 0 })
    }

    @Test func theOutputCanStartLater() {
        let mixer = AudioMixer()
        mixer.start(at: 1024)
        mixer.add(Self.tone(440, amplitude: 0.5, seconds: 0.1, at: 0), participant: "a")
        #expect(mixer.latePieces == 1)
        #expect(mixer.mix(frames: 1024).mixed.contains { $0 != 0 })
        #expect(mixer.mixedUntil == 2048)
    }
}

@Suite struct SpeakerDetectorTests {
    static let loud = [Float](repeating: 0.3, count: 1920)[...]
    static let quiet = [Float](repeating: 0.0005, count: 1920)[...]

    /// Feeds 20 ms blocks from `start` for `seconds`, with each participant loud or quiet.
    static func feed(_ detector: inout SpeakerDetector, from start: Double, seconds: Double, loud: Set<String>,
                     everyone: [String] = ["a", "b"]) -> [String?]
    {
        var speakers: [String?] = []
        var time = start
        while time < start + seconds - 1e-9 {
            time += 0.02
            for id in everyone { detector.observe(participant: id, samples: loud.contains(id) ? Self.loud : Self.quiet, duration: 0.02, at: time) }
            detector.update(at: time)
            speakers.append(detector.activeSpeaker)
        }
        return speakers
    }

    @Test func theSpeakerIsFoundAndHandedOverAfterADelay() {
        var detector = SpeakerDetector()
        let first = Self.feed(&detector, from: 0, seconds: 2, loud: ["a"])
        #expect(first.last == "a")
        // b starts and a stops: b takes over, not at once.
        let second = Self.feed(&detector, from: 2, seconds: 2, loud: ["b"])
        #expect(second.first == "a")
        #expect(second.last == "b")
        let switchIndex = second.firstIndex { $0 == "b" } ?? 0
        #expect(switchIndex >= 10) // at least the switch delay plus the level decay
        #expect(detector.lastSpoke["a"] ?? 0 < detector.lastSpoke["b"] ?? 0)
    }

    @Test func shortBurstsDoNotMoveTheSpeaker() {
        var detector = SpeakerDetector()
        _ = Self.feed(&detector, from: 0, seconds: 2, loud: ["a"])
        // b coughs for 0.1 s while a keeps talking.
        var speakers = Self.feed(&detector, from: 2, seconds: 0.1, loud: ["a", "b"])
        speakers += Self.feed(&detector, from: 2.1, seconds: 2, loud: ["a"])
        #expect(speakers.allSatisfy { $0 == "a" })
    }

    @Test func twoPeopleTalkingTogetherDoNotMakeItFlap() {
        var detector = SpeakerDetector()
        _ = Self.feed(&detector, from: 0, seconds: 1, loud: ["a"])
        var changes = 0
        var last = detector.activeSpeaker
        for second in 0..<5 {
            // Alternate who is loudest every 0.2 s.
            for step in 0..<5 {
                let loud: Set<String> = step % 2 == 0 ? ["a"] : ["b"]
                let speakers = Self.feed(&detector, from: 1 + Double(second) + Double(step) * 0.2, seconds: 0.2, loud: loud)
                for speaker in speakers where speaker != last {
                    changes += 1
                    last = speaker
                }
            }
        }
        #expect(changes <= 5)
    }

    @Test func levelsHaveHysteresis() {
        var detector = SpeakerDetector()
        _ = Self.feed(&detector, from: 0, seconds: 1, loud: ["a"])
        let onLevel = detector.level(of: "a") ?? -200
        #expect(onLevel > -15)
        _ = Self.feed(&detector, from: 1, seconds: 3, loud: [])
        #expect((detector.level(of: "a") ?? 0) < -52)
    }

    @Test func eventsOverrideDetection() {
        var detector = SpeakerDetector()
        _ = Self.feed(&detector, from: 0, seconds: 1, loud: ["a"])
        detector.override(speaker: "b", at: 1)
        let speakers = Self.feed(&detector, from: 1, seconds: 2, loud: ["a"])
        #expect(speakers.allSatisfy { $0 == "b" })
        #expect(detector.overridden)
    }
}
