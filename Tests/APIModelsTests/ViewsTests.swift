import APIModels
import Foundation
import JobSpec
import Testing

/// The REST answers are typed views; what clients read as `null` is written as `null`.
@Suite struct ViewsTests {
    static let common = JobCommonView(id: "j", roomId: "r", sessionId: "s", createdAt: "t0", updatedAt: "t1", status: "HLS_STARTING",
                                      attempts: 0, error: nil)

    static func object(_ view: some Encodable) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(APIJSON.encode(view))) as? [String: Any])
    }

    @Test func anHLSObjectWithoutURLsHasNulls() throws {
        let view = HLSView(common: Self.common, start: "t0", end: nil, duration: 0, playbackHlsUrl: nil, livestreamUrl: nil)
        let object = try Self.object(view)
        #expect(object["end"] is NSNull)
        #expect(object["playbackHlsUrl"] is NSNull && object["downstreamUrl"] is NSNull)
        #expect(object["id"] as? String == "j" && object["status"] as? String == "HLS_STARTING")
        #expect(object["error"] == nil)
        // Decoded back, it is the same view.
        #expect(try JSONDecoder().decode(HLSView.self, from: Data(APIJSON.encode(view))) == view)
    }

    @Test func aRecordingWithAFile() throws {
        let part = JobPart(attempt: 1, kind: .mp4, path: "recordings/j/part-1.mp4", status: .complete, size: 10, duration: 2, width: 4,
                           height: 2)
        let file = FileView(part: part, fileURL: "http://h/files/recordings/j/part-1.mp4")
        let view = RecordingView(common: Self.common, file: file, files: [file])
        let object = try Self.object(view)
        #expect(object["fileId"] as? String == "part-1.mp4")
        let fileObject = try #require(object["file"] as? [String: Any])
        #expect((fileObject["meta"] as? [String: Any])?["format"] as? String == "mp4")
        #expect(try Self.object(RecordingView(common: Self.common, file: nil, files: []))["file"] is NSNull)
        // A page of them.
        let page = try Self.object(PageView(page: 2, perPage: 5, total: 11, data: [view]))
        #expect((page["pageInfo"] as? [String: Any])?["lastPage"] as? Int == 3)
    }
}
