import Encode
@testable import Pipeline
import Testing

/// One job's gate on a shared encode: it starts at a keyframe, pauses and resumes with no hole
/// in either stream, and keeps audio within half a block of the video however often it does.
@Suite struct OutputGateTests {
    /// 30 fps video and 1024-sample AAC blocks, as the encoders deliver them (audio a little ahead).
    static func packets(seconds: Double, keyframesAt keyframes: Set<Int64>) -> [EncodedPacket] {
        var packets: [EncodedPacket] = []
        var audio: Int64 = 0
        for frame in Int64(0)..<Int64(seconds * 30) {
            while audio * 30 <= (frame + 1) * 48_000 {
                packets.append(EncodedPacket(stream: .audio, data: [1], pts: audio, dts: audio, duration: 1024, isKeyframe: true))
                audio += 1024
            }
            packets.append(EncodedPacket(stream: .video, data: [0, 0], pts: frame, dts: frame, duration: 1, isKeyframe: frame == 0 || keyframes.contains(frame)))
        }
        return packets
    }

    /// The first audio block of a picture's time.
    static func audioCut(_ frame: Int64) -> Int64 { (frame * 1600 + 1023) / 1024 * 1024 }

    @Test func aJobThatJoinsStartsAtAKeyframeAtZeroInSync() {
        var gate = OutputGate(framesPerSecond: 30, hasVideo: true, openFromStart: false)
        // It joins at 1 s, between the run's keyframes.
        let joining = Self.packets(seconds: 4, keyframesAt: [75]).filter { $0.stream == .video ? $0.pts >= 30 : $0.pts >= 48_000 }
        let out = joining.flatMap { gate.admit($0) }
        let video = out.filter { $0.stream == .video }, audio = out.filter { $0.stream == .audio }
        #expect(video.first?.pts == 0 && video.first?.isKeyframe == true && video.count == 120 - 75)
        #expect(zip(video, video.dropFirst()).allSatisfy { $1.pts == $0.pts + 1 })
        #expect(audio.first?.pts == 0 && zip(audio, audio.dropFirst()).allSatisfy { $1.pts == $0.pts + 1024 })
        // The keyframe was at 2.5 s of the run: the audio kept starts within half a block of it.
        #expect(abs(Double(gate.audioShift) / 48_000 - 2.5) <= 512.0 / 48_000, "\(gate.audioShift)")
        #expect(gate.outputTime(of: 3.0) == 0.5 && gate.outputTime(of: 2.0) == nil)
    }

    @Test func pausesLeaveNoHoleAndSyncHoldsOverMany() {
        var gate = OutputGate(framesPerSecond: 30, hasVideo: true, openFromStart: true)
        // Pauses at frames that fall between audio blocks; each resumes at the keyframe the run forces.
        let pauses: [(from: Int64, to: Int64)] = [(41, 83), (127, 131), (200, 263), (300, 317)]
        var out: [EncodedPacket] = []
        for packet in Self.packets(seconds: 12, keyframesAt: Set(pauses.map(\.to))) {
            if packet.stream == .video, pauses.contains(where: { $0.from == packet.pts }) {
                let closed = gate.close(video: packet.pts, audio: Self.audioCut(packet.pts)), again = gate.close(video: 0, audio: 0)
                #expect(closed && !again, "pausing twice is one pause")
            }
            if packet.stream == .video, pauses.contains(where: { $0.to == packet.pts }) {
                let opened = gate.open()
                #expect(opened)
            }
            out += gate.admit(packet)
        }
        let video = out.filter { $0.stream == .video }, audio = out.filter { $0.stream == .audio }
        let left = pauses.reduce(0) { $0 + $1.to - $1.from }
        #expect(video.count == 360 - Int(left))
        #expect(zip(video, video.dropFirst()).allSatisfy { $1.pts == $0.pts + 1 }, "video has no hole")
        #expect(zip(audio, audio.dropFirst()).allSatisfy { $1.pts == $0.pts + 1024 }, "audio has no hole")
        // Audio's shift follows video's to within half a block, after every pause.
        #expect(abs(Double(gate.audioShift) - Double(gate.videoShift) * 1600) <= 512, "audio \(gate.audioShift), video \(gate.videoShift) frames")
        #expect(abs(Double(audio.last?.pts ?? 0) / 48_000 - Double(video.last?.pts ?? 0) / 30) < 0.05)
    }

    /// A pause asked for while the encoder still holds pictures from before it, and resumed
    /// before they come out: they are written, and the output reopens only at a keyframe past
    /// the cut (not at one of the run's from before it).
    @Test func aShortPauseKeepsWhatCameBeforeItAndReopensPastIt() {
        var gate = OutputGate(framesPerSecond: 30, hasVideo: true, openFromStart: true)
        let packets = Self.packets(seconds: 4, keyframesAt: [60, 70])
        var out: [EncodedPacket] = []
        for packet in packets {
            // The run asks at picture 65 (the encoder has given up to 62) and resumes at 67.
            if packet.stream == .video && packet.pts == 62 { _ = gate.close(video: 65, audio: Self.audioCut(65)) }
            if packet.stream == .video && packet.pts == 64 { _ = gate.open() }
            out += gate.admit(packet)
        }
        let video = out.filter { $0.stream == .video }.map(\.pts)
        // 0…64 as they were, then 70 on moved back by the five left out (65…69).
        #expect(video.count == 120 - 5, "\(video.count) pictures")
        #expect(zip(video, video.dropFirst()).allSatisfy { $1 == $0 + 1 }, "no hole")
        #expect(gate.videoShift == 70 - 65, "reopened at the keyframe past the cut: \(gate.videoShift)")
    }

    /// A caption said before a pause that arrives after it is still placed, on the output's
    /// clock of the span it was said in; one said during the pause is not.
    @Test func lateCaptionsArePlacedByTheSpanTheyWereSaidIn() {
        var gate = OutputGate(framesPerSecond: 30, hasVideo: true, openFromStart: true)
        for packet in Self.packets(seconds: 6, keyframesAt: [120]) {
            if packet.stream == .video && packet.pts == 60 { _ = gate.close(video: 60, audio: Self.audioCut(60)) }
            if packet.stream == .video && packet.pts == 118 { _ = gate.open() }
            _ = gate.admit(packet)
        }
        // Open 0–2 s, paused 2–4 s, open again from 4 s (moved back by 2 s).
        #expect(gate.outputTime(of: 1.5) == 1.5, "said before the pause")
        #expect(gate.outputTime(of: 3) == nil, "said during the pause")
        #expect(abs((gate.outputTime(of: 5) ?? 0) - 3) < 1e-9, "said after it")
        #expect(gate.outputSample(of: 48_000) == 48_000 && gate.outputSample(of: 150_000) == nil)
    }

    @Test func audioOnlyReopensAtTheNextBlock() {
        var gate = OutputGate(framesPerSecond: 30, hasVideo: false, openFromStart: true)
        let audio = Self.packets(seconds: 2, keyframesAt: []).filter { $0.stream == .audio }
        var out: [EncodedPacket] = []
        for (index, packet) in audio.enumerated() {
            if index == 20 {
                let closed = gate.close(video: 0, audio: packet.pts)
                #expect(closed)
            }
            if index == 50 {
                let opened = gate.open()
                #expect(opened)
            }
            out += gate.admit(packet)
        }
        #expect(out.count == audio.count - 30 && zip(out, out.dropFirst()).allSatisfy { $1.pts == $0.pts + 1024 })
    }
}
