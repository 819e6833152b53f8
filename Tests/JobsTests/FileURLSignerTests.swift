import Foundation
import Jobs
import Testing

/// Signed `/files/` paths, with time injected.
@Suite struct FileURLSignerTests {
    let signer = FileURLSigner(apiSecret: "s3cret", lifetime: 600)
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func components(_ path: String) -> [String] { path.split(separator: "/").map(String.init) }

    @Test func aSignedPathGrantsItsFileUntilItExpires() throws {
        let path = signer.signedPath("recordings/j/part-1.mp4", now: now)
        #expect(path.hasPrefix("s/1800000600/"))
        #expect(try signer.verify(components(path), now: now) == "recordings/j/part-1.mp4")
        #expect(try signer.verify(components(path), now: now.addingTimeInterval(599)) == "recordings/j/part-1.mp4")
        #expect(throws: FileURLSigner.Refusal.expired) { try signer.verify(components(path), now: now.addingTimeInterval(600)) }
    }

    @Test func anythingElseIsRefused() throws {
        let path = components(signer.signedPath("recordings/j/part-1.mp4", now: now))
        #expect(throws: FileURLSigner.Refusal.unsigned) { try signer.verify(["recordings", "j", "part-1.mp4"], now: now) }
        #expect(throws: FileURLSigner.Refusal.malformed) { try signer.verify(["s", "x", path[2], "recordings", "j"], now: now) }
        #expect(throws: FileURLSigner.Refusal.malformed) { try signer.verify(["s", path[1], "abc", "recordings", "j"], now: now) }
        // Another file, a later expiry, another key: the signature no longer matches.
        #expect(throws: FileURLSigner.Refusal.wrongSignature) { try signer.verify(path.prefix(5) + ["part-2.mp4"], now: now) }
        #expect(throws: FileURLSigner.Refusal.wrongSignature) {
            try signer.verify(["s", "1800009999"] + path.dropFirst(2), now: now)
        }
        #expect(throws: FileURLSigner.Refusal.wrongSignature) { try FileURLSigner(apiSecret: "other").verify(path, now: now) }
    }

    @Test func anHLSPartsSignatureCoversEveryFileInItsDirectory() throws {
        let path = components(signer.signedPath("hls/j/part-1/index.m3u8", now: now))
        #expect(try signer.verify(path.prefix(6) + ["seg_00042.m4s"], now: now) == "hls/j/part-1/seg_00042.m4s")
        #expect(throws: FileURLSigner.Refusal.wrongSignature) { try signer.verify(path.prefix(5) + ["part-2", "seg_00000.m4s"], now: now) }
    }
}
