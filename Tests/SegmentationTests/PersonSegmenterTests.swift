import Capture
import Foundation
import Media
import Platform
import Testing

@testable import Segmentation

/// The real helper: MediaPipe 0.10.21's landscape selfie model from the venv scripts/bootstrap
/// makes, on a real person (the astronaut photo of scikit-image, NASA, public domain).
@Suite struct PersonSegmenterTests {
    /// The astronaut photo scaled to 360x360 and centred on a grey 640x360 picture: the grey
    /// bands on both sides are background for sure, her face and suit a person for sure.
    static func personOnGrey() throws -> VideoFrame {
        let runtime = try SegmentationRuntime.locate()
        let photo = try MediaFileCamera(path: runtime.directory + "/astronaut.png", format: CameraFormat(width: 360, height: 360)).frame(0)
        var frame = VideoFrame(width: 640, height: 360, color: YUVColor(y: 126, u: 128, v: 128))
        for row in 0..<360 {
            frame.y.replaceSubrange((row * 640 + 140)..<(row * 640 + 500), with: photo.y[(row * 360)..<(row * 360 + 360)])
        }
        for row in 0..<180 {
            frame.u.replaceSubrange((row * 320 + 70)..<(row * 320 + 250), with: photo.u[(row * 180)..<(row * 180 + 180)])
            frame.v.replaceSubrange((row * 320 + 70)..<(row * 320 + 250), with: photo.v[(row * 180)..<(row * 180 + 180)])
        }
        return frame
    }

    /// Where the photo puts her face, her suit, and nobody, in fractions of the 640x360 picture.
    static let face = (x: 0.45...0.50, y: 0.15...0.30)
    static let suit = (x: 0.37...0.48, y: 0.60...0.85)
    static let bands = [(x: 0.0...0.2, y: 0.0...1.0), (x: 0.8...1.0, y: 0.0...1.0)]

    @Test func findsThePersonAndNotTheBackground() throws {
        let segmenter = try PersonSegmenter(runtime: SegmentationRuntime.locate())
        defer { segmenter.stop() }
        #expect(segmenter.description.contains("selfie_segmentation_landscape"), "\(segmenter.description)")
        let mask = try segmenter.segment(try Self.personOnGrey())
        #expect(mask.width == 256 && mask.height == 144)
        let face = mask.personShare(x: Self.face.x, y: Self.face.y)
        let suit = mask.personShare(x: Self.suit.x, y: Self.suit.y)
        let bands = Self.bands.map { mask.personShare(x: $0.x, y: $0.y) }
        #expect(face > 0.9 && suit > 0.9, "face \(face), suit \(suit)")
        #expect(bands.allSatisfy { $0 < 0.02 }, "bands \(bands)")
        print("measured: person mask: face \(face), suit \(suit), grey bands \(bands), whole picture \(mask.personShare())")
    }

    /// A helper killed between pictures is reported lost (its owner starts another), and a new
    /// one segments as the first did.
    @Test func aKilledHelperIsReportedLost() throws {
        let runtime = try SegmentationRuntime.locate()
        let frame = try Self.personOnGrey()
        let first = try PersonSegmenter(runtime: runtime)
        let before = try first.segment(frame)
        kill(try #require(first.helperProcessID), SIGKILL)
        #expect(throws: SegmentationError.self) { _ = try first.segment(frame) }
        #expect(first.helperProcessID == nil)
        let second = try PersonSegmenter(runtime: runtime)
        defer { second.stop() }
        #expect(try second.segment(frame) == before, "the model is deterministic on one picture")
    }

    @Test func aMissingInstallIsSaidPlainly() {
        #expect { _ = try SegmentationRuntime.locate(environment: ["REVUE_SEGMENTATION_VENV": "/nonexistent"]) } throws: { error in
            (error as? SegmentationError).map { $0.kind == .unavailable && $0.description.contains("scripts/bootstrap") } ?? false
        }
        #expect { _ = try PersonSegmenter(runtime: SegmentationRuntime(python: "/bin/false")) } throws: { error in
            (error as? SegmentationError)?.kind == .unavailable
        }
    }

    /// Pictures of any size, the camera's odd ones included, are scaled to the model's input.
    @Test func oddCameraSizesAreSegmented() throws {
        let segmenter = try PersonSegmenter(runtime: SegmentationRuntime.locate())
        defer { segmenter.stop() }
        for (width, height) in [(1, 1), (3, 2), (641, 481)] {
            let mask = try segmenter.segment(VideoFrame(width: width, height: height, color: YUVColor(y: 126, u: 128, v: 128)))
            #expect(mask.width == 256 && mask.height == 144)
        }
    }
}
