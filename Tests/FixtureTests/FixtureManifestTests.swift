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

    static let carol = #"{"id": "carol", "name": "Carol", "tracks": [{"kind": "video", "ssrc": 9, "codec": "VP8", "payloadType": 96, "clockRate": 90000}]}"#

    @Test func roomEventsParseInTimeOrder() throws {
        let json = """
            {"participants": [{"id": "a", "tracks": [\(Self.track)]}],
             "events": [{"at": 9, "type": "leave", "participantId": "carol"},
                        {"at": 3, "type": "join", "participant": \(Self.carol)},
                        {"at": 5, "type": "unpublish", "participantId": "carol", "ssrc": 9},
                        {"at": 6, "type": "publish", "participantId": "carol", "track": {"kind": "share", "ssrc": 10, "codec": "VP8", "payloadType": 96, "clockRate": 90000}},
                        {"at": 8, "type": "rename", "participantId": "carol", "name": "Carol (host)"},
                        {"at": 10, "type": "join", "participant": {"id": "carol", "name": "Carol", "tracks": [{"kind": "video", "ssrc": 9, "codec": "VP8", "payloadType": 96, "clockRate": 90000}]}}]}
            """
        let manifest = try FixtureManifest(json: Array(json.utf8))
        #expect(manifest.events.map(\.at) == [3, 5, 6, 8, 9, 10])
        #expect(manifest.events[1].event == .unpublish(participantID: "carol", ssrc: 9))
        #expect(manifest.events[3].event == .rename(participantID: "carol", name: "Carol (host)"))
        // Every track the capture may carry, the later ones too (ssrc 9 came back after the leave).
        #expect(manifest.tracks.map(\.track.ssrc) == [1, 9, 10, 9])
        #expect(manifest.everyone == ["a", "carol"])
        #expect(manifest.name(of: "carol") == "Carol")
    }

    @Test(arguments: [
        ("join twice", #"[{"at": 1, "type": "join", "participant": \#(carol)}, {"at": 2, "type": "join", "participant": \#(carol)}]"#,
         #"events[1] at 2.0 s: participant "carol" joins but is already in the room"#),
        ("leave before joining", #"[{"at": 1, "type": "leave", "participantId": "carol"}]"#, #"names unknown participant "carol""#),
        ("leave twice", #"[{"at": 1, "type": "join", "participant": \#(carol)}, {"at": 2, "type": "leave", "participantId": "carol"}, {"at": 3, "type": "leave", "participantId": "carol"}]"#,
         #"events[2] at 3.0 s: participant "carol" is not in the room then"#),
        ("unpublish what is not published", #"[{"at": 1, "type": "unpublish", "participantId": "a", "ssrc": 77}]"#,
         #"participant "a" does not publish ssrc 77"#),
        ("publish a used ssrc", #"[{"at": 1, "type": "publish", "participantId": "a", "track": \#(track)}]"#, "ssrc 1 appears twice"),
        ("publish without a track", #"[{"at": 1, "type": "publish", "participantId": "a"}]"#, "events[0].track: missing"),
        ("a bad track", #"[{"at": 1, "type": "publish", "participantId": "a", "track": {"kind": "video"}}]"#, "events[0].track.codec"),
        ("join without a participant", #"[{"at": 1, "type": "join"}]"#, "events[0].participant: missing"),
        ("rename without a name", #"[{"at": 1, "type": "rename", "participantId": "a"}]"#, "events[0].name"),
        ("unpublish a bad ssrc", #"[{"at": 1, "type": "unpublish", "participantId": "a", "ssrc": -1}]"#, "events[0].ssrc"),
    ])
    func badRoomEventsNameTheProblem(name: String, events: String, message: String) {
        let json = #"{"participants": [{"id": "a", "tracks": [\#(Self.track)]}], "events": \#(events)}"#
        let error = #expect(throws: FixtureError.self, "\(name)") { try FixtureManifest(json: Array(json.utf8)) }
        #expect(error?.description.contains(message) == true, "\(name): \(String(describing: error))")
    }
}
