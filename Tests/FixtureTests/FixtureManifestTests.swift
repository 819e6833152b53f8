import Fixture
import Foundation
import MediaSource
import TestSupport
import Testing

@Suite struct FixtureManifestTests {
    @Test func theExampleManifestParses() throws {
        let data = try #require(FileManager.default.contents(atPath: TestFixtures.path("example") + "/manifest.json"))
        let manifest = try FixtureManifest(json: Array(data))
        #expect(manifest.participants.map(\.id) == ["erin", "frank"])
        #expect(manifest.participants[0].tracks == [
            .init(kind: .video, ssrc: 7001, codec: .vp8, payloadType: 96, clockRate: 90000),
            .init(kind: .audio, ssrc: 7002, codec: .opus, payloadType: 111, clockRate: 48000, channels: 2),
        ])
        #expect(manifest.participants[1].tracks[0].codec == .h264)
        #expect(manifest.events.isEmpty)
    }

    @Test func eventsAndCameraOffParticipantsParse() throws {
        let json = """
            {"participants": [
               {"id": "erin", "name": "Erin", "tracks": [{"kind": "video", "ssrc": 1, "codec": "VP8", "payloadType": 96, "clockRate": 90000}]},
               {"id": "gil", "tracks": [{"kind": "audio", "ssrc": 2, "codec": "opus", "payloadType": 111, "clockRate": 48000}]},
               {"id": "hal", "name": "Hal", "tracks": [{"kind": "share", "ssrc": 3, "codec": "H264", "payloadType": 102, "clockRate": 90000}]}],
             "events": [{"at": 4.0, "type": "unpin", "participantId": "erin"}, {"at": 2.5, "type": "pin", "participantId": "erin"},
                        {"at": 1, "type": "activeSpeaker", "participantId": "gil"}]}
            """
        let manifest = try FixtureManifest(json: Array(json.utf8))
        #expect(manifest.events.map(\.at) == [1, 2.5, 4])
        #expect(manifest.events.map(\.event) == [.activeSpeaker(participantID: "gil"), .pin(participantID: "erin"), .unpin(participantID: "erin")])
        #expect(manifest.participants[1].name == "gil")
        #expect(!manifest.participants[1].hasCamera)
        #expect(manifest.participants[2].tracks[0].kind == .share)
    }

    static let track = #"{"kind": "video", "ssrc": 1, "codec": "VP8", "payloadType": 96, "clockRate": 90000}"#

    @Test(arguments: [
        ("not JSON", "{", "not valid JSON"),
        ("not an object", "[]", "top level"),
        ("no participants", "{}", "participants: missing"),
        ("empty participants", #"{"participants": []}"#, "empty"),
        ("unknown codec", #"{"participants": [{"id": "a", "tracks": [{"kind": "video", "ssrc": 1, "codec": "VP9", "payloadType": 96, "clockRate": 90000}]}]}"#,
         #"participants[0].tracks[0].codec: unknown codec "VP9""#),
        ("unknown kind", #"{"participants": [{"id": "a", "tracks": [{"kind": "data", "ssrc": 1, "codec": "VP8", "payloadType": 96, "clockRate": 90000}]}]}"#,
         "unknown kind"),
        ("duplicate ssrc", #"{"participants": [{"id": "a", "tracks": [\#(track)]}, {"id": "b", "tracks": [\#(track)]}]}"#,
         "ssrc 1 appears twice"),
        ("duplicate participant", #"{"participants": [{"id": "a", "tracks": []}, {"id": "a", "tracks": []}]}"#, "appears twice"),
        ("ssrc not a number", #"{"participants": [{"id": "a", "tracks": [{"kind": "video", "ssrc": "1", "codec": "VP8", "payloadType": 96, "clockRate": 90000}]}]}"#,
         "ssrc: missing or not a number"),
        ("ssrc out of range", #"{"participants": [{"id": "a", "tracks": [{"kind": "video", "ssrc": 4294967296, "codec": "VP8", "payloadType": 96, "clockRate": 90000}]}]}"#,
         "not a whole number"),
        ("payload type out of range", #"{"participants": [{"id": "a", "tracks": [{"kind": "video", "ssrc": 1, "codec": "VP8", "payloadType": 128, "clockRate": 90000}]}]}"#,
         "payloadType"),
        ("opus as video", #"{"participants": [{"id": "a", "tracks": [{"kind": "video", "ssrc": 1, "codec": "opus", "payloadType": 111, "clockRate": 48000}]}]}"#,
         "does not fit kind video"),
        ("event for nobody", #"{"participants": [{"id": "a", "tracks": []}], "events": [{"at": 1, "type": "pin", "participantId": "z"}]}"#,
         "unknown participant \"z\""),
        ("unknown event", #"{"participants": [{"id": "a", "tracks": []}], "events": [{"at": 1, "type": "wave", "participantId": "a"}]}"#,
         "unknown event \"wave\""),
        ("negative time", #"{"participants": [{"id": "a", "tracks": []}], "events": [{"at": -1, "type": "pin", "participantId": "a"}]}"#,
         "events[0].at"),
    ])
    func badManifestsNameTheProblem(name: String, json: String, message: String) {
        let error = #expect(throws: FixtureError.self, "\(name)") { try FixtureManifest(json: Array(json.utf8)) }
        #expect(error?.description.contains(message) == true, "\(name): \(String(describing: error))")
        #expect(error?.description.hasPrefix("manifest.json: ") == true)
    }
}
