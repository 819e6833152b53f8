import APIModels
import Foundation
import JobSpec
import Testing

/// The config of a start request: every field, its spellings, its limits by job kind, and an
/// error that names the field.
@Suite struct RecordingConfigTests {
    static func config(_ json: String, kind: JobKind = .recording) throws(SpecError) -> RecordingConfig {
        try RecordingConfig(validating: try JSONValue(parsing: Array(json.utf8)), kind: kind)
    }

    /// `config.mode: "tracks"` (issue 26 item 5): a recording's, with its limits and keys; what
    /// only a composite has, or another kind, is refused naming the field.
    @Test func tracksModeIsARecordingsWithNothingToLayOut() throws {
        let tracks = try Self.config(#"{"mode": "tracks", "maxDuration": 60, "idleTimeout": 30}"#)
        #expect(tracks.mode == .tracks && !tracks.mode.composites && tracks.maxDuration == 60)
        #expect(try JSONDecoder().decode(RecordingConfig.self, from: JSONEncoder().encode(tracks)) == tracks)
        #expect(try Self.config(#"{"mode": "TRACKS"}"#).mode == .tracks)
        for field in [#""layout": {"type": "GRID"}"#, #""theme": "DARK""#, #""quality": "high""#, #""orientation": "portrait""#,
                      #""thumbnails": {"intervalSeconds": 5}"#]
        {
            #expect(throws: SpecError.self) { try Self.config(#"{"mode": "tracks", \#(field)}"#) }
        }
        do {
            _ = try Self.config(#"{"mode": "tracks", "theme": "DARK"}"#)
        } catch {
            #expect(error.description.contains("config.theme does not apply to config.mode \"tracks\""), "\(error)")
        }
        for kind in [JobKind.hls, .livestream] {
            #expect(throws: SpecError.self) { try Self.config(#"{"mode": "tracks"}"#, kind: kind) }
        }
        // A null field is no field.
        #expect(try Self.config(#"{"mode": "tracks", "layout": null}"#).mode == .tracks)
    }

    /// `config.renditions` (issue 27 item 4): an HLS job's ladder, best first, the best one the
    /// composite's size; anything else refused naming the field.
    @Test func renditionsAreAnHLSLadder() throws {
        let ladder = try Self.config(#"{"renditions": ["360p", "720P"]}"#, kind: .hls)
        #expect(ladder.renditions == [.p720, .p360] && ladder.quality == .med)
        #expect(try JSONDecoder().decode(RecordingConfig.self, from: JSONEncoder().encode(ladder)) == ladder)
        #expect(try Self.config(#"{"renditions": ["1080p", "480p"], "quality": "high"}"#, kind: .hls).quality == .high)
        for (json, kind, says) in [(#"{"renditions": ["720p"]}"#, JobKind.recording, "config.renditions is for HLS"),
                                   (#"{"renditions": ["360p", "240p"]}"#, .hls, "480p or more"),
                                   (#"{"renditions": ["720p", "720p"]}"#, .hls, "names 720p twice"),
                                   (#"{"renditions": ["720p", "4k"]}"#, .hls, "must be one of"),
                                   (#"{"renditions": []}"#, .hls, "array of 1 to 3"),
                                   (#"{"renditions": ["1080p", "720p", "480p", "360p"]}"#, .hls, "array of 1 to 3"),
                                   (#"{"renditions": ["720p", "360p"], "quality": "low"}"#, .hls, "disagree"),
                                   (#"{"renditions": ["720p"], "mode": "audio"}"#, .hls, "needs video")]
        {
            do {
                _ = try Self.config(json, kind: kind)
                Issue.record("\(json) was taken")
            } catch {
                #expect(error.description.contains(says), "\(json): \(error)")
            }
        }
    }

    @Test func absentOrNullIsEveryDefault() throws {
        #expect(try RecordingConfig(validating: nil, kind: .recording) == RecordingConfig())
        #expect(try Self.config("null") == RecordingConfig())
        #expect(try Self.config("{}") == RecordingConfig())
        let defaults = RecordingConfig()
        #expect(defaults.layout == LayoutSettings(type: .grid, priority: .speaker, gridSize: 4))
        #expect(defaults.theme == .default && defaults.mode == .videoAndAudio && defaults.quality == .med && defaults.orientation == .landscape)
        #expect(!defaults.alsoRecords)
    }

    /// `config.maxDuration` and `config.idleTimeout` (docs/JOBS.md, "Stopping on its own"):
    /// seconds, kept through the store's JSON; out of range, the error names the field.
    @Test func limitsAreSecondsInRange() throws {
        let limited = try Self.config(#"{"maxDuration": 3600, "idleTimeout": 0}"#, kind: .hls)
        #expect(limited.maxDuration == 3600 && limited.idleTimeout == 0)
        let stored = try JSONDecoder().decode(RecordingConfig.self, from: JSONEncoder().encode(limited))
        #expect(stored == limited)
        #expect(try Self.config("{}").maxDuration == nil && (try Self.config("{}").idleTimeout) == nil)
        // config.thumbnails: every default, or what it says.
        #expect(try Self.config(#"{"thumbnails": {}}"#).thumbnails == ThumbnailSettings(intervalSeconds: 10, width: 320))
        #expect(try Self.config(#"{"thumbnails": {"intervalSeconds": 2, "width": 640}}"#, kind: .livestream).thumbnails
                == ThumbnailSettings(intervalSeconds: 2, width: 640))
        for (json, kind, field) in [(#"{"maxDuration": 0}"#, JobKind.recording, "config.maxDuration"),
                                    (#"{"maxDuration": "1h"}"#, .recording, "config.maxDuration"),
                                    (#"{"maxDuration": 700000}"#, .livestream, "config.maxDuration"),
                                    (#"{"maxDuration": 60}"#, .transcription, "config.maxDuration is for"),
                                    (#"{"idleTimeout": -1}"#, .recording, "config.idleTimeout"),
                                    (#"{"thumbnails": {"width": 321}}"#, .recording, "config.thumbnails.width"),
                                    (#"{"thumbnails": {"intervalSeconds": 0.5}}"#, .hls, "config.thumbnails.intervalSeconds"),
                                    (#"{"thumbnails": true}"#, .recording, "config.thumbnails must be an object")]
        {
            let error = #expect(throws: SpecError.self) { try Self.config(json, kind: kind) }
            #expect(error?.message.contains(field) == true, "\(json): \(String(describing: error))")
        }
    }

    /// `config.e2ee`: a shared key or participant keys; errors name the field; the keys never
    /// reach a redacted spec (what logs and the run's `configured` event print).
    @Test func e2eeKeysAreReadCheckedAndRedacted() throws {
        let shared = try Self.config(#"{"e2ee": {"sharedKey": "s3cret"}}"#)
        #expect(shared.e2ee == E2EEKeys(sharedKey: "s3cret"))
        let each = try Self.config(#"{"e2ee": {"participantKeys": {"ada": "k1", "bob": "k2"}}}"#)
        #expect(each.e2ee?.key(for: "ada") == "k1" && each.e2ee?.key(for: "eve") == nil)
        for (json, field) in [(#"{"e2ee": "s3cret"}"#, "config.e2ee must be an object"), (#"{"e2ee": {}}"#, "config.e2ee needs"),
                              (#"{"e2ee": {"sharedKey": ""}}"#, "config.e2ee.sharedKey"),
                              (#"{"e2ee": {"participantKeys": {"ada": 7}}}"#, "config.e2ee.participantKeys.ada")]
        {
            let error = #expect(throws: SpecError.self) { try Self.config(json) }
            #expect(error?.message.contains(field) == true, "\(json): \(String(describing: error))")
        }
        let spec = PipelineSpec(source: .room(RoomSourceSpec(signalingURL: "ws://127.0.0.1:1/v2/rtc", roomID: "r", token: "t")), config: each,
                                outputs: [])
        let printed = String(decoding: try JSONEncoder().encode(spec.redacted), as: UTF8.self)
        #expect(!printed.contains("k1") && !printed.contains("k2") && printed.contains("redacted"), "\(printed)")
        // A config stored before the field existed still reads.
        let stored = try JSONDecoder().decode(RecordingConfig.self, from: Data(#"{"theme": "DARK"}"#.utf8))
        #expect(stored.e2ee == nil && stored.theme == .dark)
    }

    @Test func everyFieldAndTheSDKSpellings() throws {
        let config = try Self.config("""
            {"layout": {"type": "sidebar", "priority": "PIN", "gridSize": 2}, "theme": "LIGHT", "mode": "VIDEO_AND_AUDIO",
             "quality": "HIGH", "orientation": "PORTRAIT", "recording": {"enabled": true}}
            """, kind: .hls)
        #expect(config == RecordingConfig(layout: LayoutSettings(type: .sidebar, priority: .pin, gridSize: 2), theme: .light,
                                          mode: .videoAndAudio, quality: .high, orientation: .portrait, recording: .init(enabled: true)))
        #expect(try Self.config(#"{"mode": "audio"}"#).mode == .audio)
        #expect(try Self.config(#"{"mode": "video-and-audio"}"#).mode == .videoAndAudio)
    }

    @Test(arguments: [(JobKind.recording, 4), (.livestream, 4), (.hls, 25)])
    func gridSizeLimitsDependOnTheKind(kind: JobKind, largest: Int) throws {
        #expect(try Self.config(#"{"layout": {"gridSize": \#(largest)}}"#, kind: kind).layout.gridSize == largest)
        #expect(try Self.config(#"{"layout": {"gridSize": 1.0}}"#, kind: kind).layout.gridSize == 1)
        for bad in ["0", "\(largest + 1)", "2.5", "\"3\"", "true", "null"] {
            let error = #expect(throws: SpecError.self) { try Self.config(#"{"layout": {"gridSize": \#(bad)}}"#, kind: kind) }
            #expect(error?.message.contains("config.layout.gridSize must be a whole number from 1 to \(largest)") == true, "\(bad)")
        }
    }

    @Test(arguments: [
        (#"{"layout": {"type": "MOSAIC"}}"#, "config.layout.type must be one of GRID, SPOTLIGHT, SIDEBAR"),
        (#"{"layout": {"priority": 1}}"#, "config.layout.priority must be one of SPEAKER, PIN"),
        (#"{"layout": []}"#, "config.layout must be an object"),
        (#"{"theme": "NEON"}"#, "config.theme must be one of DARK, LIGHT, DEFAULT"),
        (#"{"mode": "video"}"#, "config.mode must be one of video-and-audio, audio, tracks"),
        (#"{"quality": "ultra"}"#, "config.quality must be one of low, med, high"),
        (#"{"orientation": "square"}"#, "config.orientation must be one of landscape, portrait"),
        (#"{"recording": {"enabled": "yes"}}"#, "config.recording.enabled must be true or false"),
        (#"[1]"#, "config must be an object"),
    ])
    func badFieldsAreNamed(json: String, message: String) {
        let error = #expect(throws: SpecError.self) { try Self.config(json) }
        #expect(error?.message == message)
        #expect(error?.category == .invalidRequest)
    }

    /// What is stored is read back as it was: the database's copy is the validated value.
    @Test func theStoredFormRoundTrips() throws {
        let config = try Self.config(#"{"layout": {"type": "SPOTLIGHT", "gridSize": 9}, "theme": "DARK", "recording": {"enabled": true}}"#,
                                     kind: .hls)
        let stored = APIJSON.text(config)
        #expect(try JSONDecoder().decode(RecordingConfig.self, from: Data(stored.utf8)) == config)
        // A stored document from an older version with fields missing reads as the defaults.
        #expect(try JSONDecoder().decode(RecordingConfig.self, from: Data(#"{"theme": "LIGHT"}"#.utf8)).layout == LayoutSettings())
    }
}
