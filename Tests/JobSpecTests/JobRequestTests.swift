import Foundation
import JobSpec
import TestKit
import Testing

/// Start requests as the REST API receives them.
@Suite struct JobRequestTests {
    static func request(_ json: String, kind: JobKind) throws(SpecError) -> JobRequest {
        try JobRequest(validating: try JSONValue(parsing: Array(json.utf8)), kind: kind)
    }

    /// A per-participant recording refuses what it cannot do yet (a presigned upload of its many
    /// files) instead of ignoring it, and takes an `awsDirPath` and a transcript.
    @Test func aTracksRecordingRefusesWhatItHasNot() throws {
        let uploaded = try Self.request(#"{"roomId": "r1", "config": {"mode": "tracks"}, "awsDirPath": "calls/1"}"#, kind: .recording)
        #expect(uploaded.config.mode == .tracks && uploaded.awsDirPath == "calls/1")
        let transcribed = try Self.request(#"{"roomId": "r1", "config": {"mode": "tracks"}, "transcription": {"enabled": true}}"#, kind: .recording)
        #expect(transcribed.transcription != nil)
        let error = #expect(throws: SpecError.self) {
            try Self.request(#"{"roomId": "r1", "config": {"mode": "tracks"}, "preSignedUrl": "https://b.example/put"}"#, kind: .recording)
        }
        #expect(error?.message.contains("preSignedUrl") == true && error?.message.contains("tracks") == true, "\(String(describing: error))")
    }

    @Test func aLivestreamWithEveryField() throws {
        let request = try Self.request("""
            {"roomId": "r1", "outputs": [{"url": "rtmp://a.example/live", "streamKey": "k1"}, {"url": "rtmps://b.example/app/"}],
             "config": {"quality": "low"}, "webhookUrl": "https://hooks.example/x", "awsDirPath": "a/b"}
            """, kind: .livestream)
        #expect(request.roomID == "r1")
        #expect(request.outputs == [LivestreamOutput(url: "rtmp://a.example/live", streamKey: "k1"),
                                    LivestreamOutput(url: "rtmps://b.example/app/", streamKey: nil)])
        #expect(request.outputs.map(\.publishURL) == ["rtmp://a.example/live/k1", "rtmps://b.example/app/"])
        #expect(request.config.quality == .low)
        #expect(request.webhookURL == "https://hooks.example/x")
        #expect(request.awsDirPath == "a/b")
        let upload = try Self.request(#"{"roomId": "r1", "preSignedUrl": "https://b.s3.amazonaws.com/k.mp4?X-Amz-Signature=ab"}"#, kind: .recording)
        #expect(upload.preSignedURL == "https://b.s3.amazonaws.com/k.mp4?X-Amz-Signature=ab")
    }

    @Test(arguments: [
        ("{}", JobKind.recording, SpecError.Category.invalidRequest, "roomId is required"),
        (#"{"roomId": "../etc"}"#, .recording, .roomID, "there is no room"),
        (#"{"roomId": "r1"}"#, .livestream, .livestreamConfig, "outputs must be a non-empty list"),
        (#"{"roomId": "r1", "outputs": [{"url": "http://x"}]}"#, .livestream, .livestreamConfig, "outputs[0].url must be an rtmp://"),
        (#"{"roomId": "r1", "outputs": [{"url": "rtmp://x", "streamKey": 5}]}"#, .livestream, .livestreamConfig, "outputs[0].streamKey"),
        (#"{"roomId": "r1", "webhookUrl": "ftp://x"}"#, .recording, .invalidRequest, "webhookUrl must be an http://"),
        (#"{"roomId": "r1", "awsDirPath": 3}"#, .recording, .invalidRequest, "awsDirPath must be a string"),
        (#"{"roomId": "r1", "awsDirPath": "a/../b"}"#, .recording, .invalidRequest, "awsDirPath must be an object key prefix"),
        (#"{"roomId": "r1", "preSignedUrl": "s3://bucket/key"}"#, .recording, .invalidRequest, "preSignedUrl must be an http://"),
        (#"{"roomId": "r1", "preSignedUrl": 7}"#, .recording, .invalidRequest, "preSignedUrl must be an http://"),
        (#"{"roomId": "r1", "config": {"theme": "NEON"}}"#, .hls, .invalidRequest, "config.theme"),
    ])
    func badRequestsSayWhyAndWhichFamily(json: String, kind: JobKind, category: SpecError.Category, message: String) {
        let error = #expect(throws: SpecError.self) { try Self.request(json, kind: kind) }
        #expect(error?.category == category, "\(json)")
        #expect(error?.message.contains(message) == true, "\(json): \(String(describing: error))")
    }

    /// Bodies come from outside: random and mutated JSON is refused or accepted, never a crash.
    @Test func randomBodiesNeverCrash() throws {
        let seed = Array(#"{"roomId": "r1", "outputs": [{"url": "rtmp://x/y", "streamKey": "k"}], "config": {"layout": {"type": "GRID", "gridSize": 3}, "theme": "DARK", "recording": {"enabled": true}}}"#.utf8)
        var generator = SeededGenerator(seed: 9)
        var accepted = 0
        for round in 0..<100_000 {
            let bytes = round % 10 == 0 ? generator.bytes(Int(generator.next() % 64)) : generator.mutate(seed)
            guard let body = try? JSONValue(parsing: bytes) else { continue }
            for kind in JobKind.allCases where (try? JobRequest(validating: body, kind: kind)) != nil { accepted += 1 }
        }
        #expect(accepted > 0)
    }

    /// `transcription`: enabled is kept with its model and summary; off or absent is nothing; a
    /// malformed summary, an unknown member or a livestream's is refused, never silently ignored.
    @Test func transcriptionIsReadAndWhatIsMalformedIsRefused() throws {
        func request(_ body: String, _ kind: JobKind = .recording) throws -> JobRequest {
            try JobRequest(validating: try JSONValue(parsing: Array(body.utf8)), kind: kind)
        }
        let on = try request(#"{"roomId": "r", "transcription": {"enabled": true, "modelId": "tiny.en", "modelConfig": {"beamSize": 1}, "keepSpeakerAudio": true}}"#)
        #expect(on.transcription == TranscriptionRequest(modelId: "tiny.en", modelConfig: #"{"beamSize":1}"#, keepSpeakerAudio: true))
        #expect(try request(#"{"roomId": "r", "transcription": {"enabled": false}}"#, .hls).transcription == nil)
        #expect(try request(#"{"roomId": "r", "transcription": null}"#).transcription == nil)
        #expect(try request(#"{"roomId": "r", "transcription": {"enabled": true, "summary": {"enabled": false}}}"#).transcription == TranscriptionRequest())
        #expect(try request(#"{"roomId": "r", "transcription": {"enabled": true, "summary": {"enabled": true}}}"#).transcription?.summary == SummaryRequest())
        let prompted = try request(#"{"roomId": "r", "transcription": {"enabled": true, "summary": {"enabled": true, "prompt": "Action items only"}}}"#)
        #expect(prompted.transcription?.summary?.effectivePrompt == "Action items only")
        #expect(try request(#"{"roomId": "r", "summary": {"enabled": true}}"#, .transcription).transcription?.summary == SummaryRequest())
        for (body, message) in [(#"{"roomId": "r", "transcription": {"enabled": true, "summary": {"enabled": true, "prompt": " "}}}"#, "summary.prompt"),
                                (#"{"roomId": "r", "transcription": {"enabled": true, "summary": {"enabled": true, "prompt": 7}}}"#, "summary.prompt"),
                                (#"{"roomId": "r", "transcription": {"enabled": true, "summary": {"enabled": true, "style": "x"}}}"#, "unknown member \"style\""),
                                (#"{"roomId": "r", "transcription": {"enabled": true, "summary": true}}"#, "summary must be an object"),
                                (#"{"roomId": "r", "transcription": {"enabled": true, "modelConfig": "beam"}}"#, "modelConfig must be a JSON object"),
                                (#"{"roomId": "r", "transcription": {"enabled": true, "languge": "en"}}"#, "unknown member \"languge\""),
                                (#"{"roomId": "r", "transcription": {"on": true}}"#, "unknown member"),
                                (#"{"roomId": "r", "transcription": true}"#, "transcription must be an object")]
        {
            let refused = #expect(throws: SpecError.self) { try request(body) }
            #expect(refused?.message.contains(message) == true, "\(body): \(String(describing: refused))")
        }
        let livestream = #expect(throws: SpecError.self) {
            try request(#"{"roomId": "r", "outputs": [{"url": "rtmp://127.0.0.1/live"}], "transcription": {"enabled": true}}"#, .livestream)
        }
        #expect(livestream?.message.contains("not livestreams") == true)
    }

    /// Finding 13 of issue 29: a livestream has at most eight outputs.
    @Test func aLivestreamHasAtMostEightOutputs() throws {
        func request(_ count: Int) throws -> JobRequest {
            let outputs = (0..<count).map { JSONValue.object(["url": .string("rtmp://127.0.0.1/live/\($0)")]) }
            return try JobRequest(validating: .object(["roomId": .string("r"), "outputs": .array(outputs)]), kind: .livestream)
        }
        #expect(try request(8).outputs.count == 8)
        let refused = #expect(throws: SpecError.self) { try request(9) }
        #expect(refused?.category == .livestreamConfig && refused?.message.contains("at most 8") == true)
        #expect(try request(1).destinations == ["rtmp://127.0.0.1/live/0"])
    }
}
