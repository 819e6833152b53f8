@testable import Composite
import JobSpec
import Layout
import Media
import Testing

@Suite struct CompositorTests {
    static let canvas = Size(width: 640, height: 360)
    static let purple = YUVColor(rgb: 0x8030C0)
    static let orange = YUVColor(rgb: 0xE08020)

    static func compositor(_ theme: Theme.Name = .default) throws -> Compositor {
        try Compositor(canvas: canvas, theme: Theme.named(theme), text: try TextRenderer())
    }

    static func layout(_ participants: [LayoutParticipant], speaker: String? = nil, type: LayoutType = .grid) -> Layout {
        LayoutEngine.layout(participants: participants, activeSpeaker: speaker,
                            configuration: LayoutConfiguration(type: type, canvas: canvas))
    }

    @Test func picturesLandInTheirTilesInTheirColours() throws {
        let compositor = try Self.compositor()
        let layout = Self.layout([LayoutParticipant(id: "a", name: "Ann"), LayoutParticipant(id: "b", name: "Bob")])
        let pictures = ["a": VideoFrame(width: 320, height: 180, color: Self.purple), "b": VideoFrame(width: 640, height: 360, color: Self.orange)]
        var canvas = compositor.makeCanvas()
        compositor.render(layout, pictures: pictures, shares: [:], into: &canvas)
        for tile in layout.tiles {
            let source = pictures[tile.participantID] ?? VideoFrame(width: 2, height: 2)
            let placement = ContentPlacement.place(source: Size(width: source.width, height: source.height), in: tile.rect, mode: .fill)
            // The top-centre of the picture, away from the label and outline.
            let point = placement.canvasPoint(sourceX: Double(source.width) / 2, sourceY: Double(source.height) / 4)
            let expected = tile.participantID == "a" ? Self.purple : Self.orange
            #expect(canvas.pixel(x: point.x, y: point.y).distance(to: expected) <= 2, "\(tile.participantID)")
        }
        // Between tiles is the background.
        #expect(canvas.pixel(x: 2, y: 2) == Theme.named(.default).background)
    }

    @Test func aCameraWithoutAPictureIsAPlaceholderWithInitialsNeverBlack() throws {
        let compositor = try Self.compositor()
        let layout = Self.layout([LayoutParticipant(id: "a", name: "Ann Lee")])
        var canvas = compositor.makeCanvas()
        compositor.render(layout, pictures: [:], shares: [:], into: &canvas)
        let tile = layout.tiles[0].rect
        let theme = Theme.named(.default)
        let centre = canvas.pixel(x: tile.x + tile.width / 2, y: tile.y + tile.height / 2 - tile.height / 20)
        #expect(centre.distance(to: YUVColor.black) > 20)
        // The disc and the white initials are both there.
        var luma: [UInt8] = []
        for x in stride(from: tile.x, to: tile.maxX, by: 2) { luma.append(canvas.pixel(x: x, y: tile.y + tile.height / 2 - tile.height / 20).y) }
        #expect(luma.contains { abs(Int($0) - Int(theme.avatarText.y)) < 10 })
        #expect(luma.contains { abs(Int($0) - Int(theme.avatar.y)) < 3 })
        #expect(Compositor.initials(of: "Ann Lee") == "AL")
        #expect(Compositor.initials(of: "frank") == "F")
        #expect(Compositor.initials(of: "  ") == "?")
        #expect(Compositor.initials(of: "Carol (host)") == "CH")
        #expect(Compositor.initials(of: "Frank de Vries") == "FV")
    }

    @Test func labelsAndTheSpeakerHighlightAreDrawn() throws {
        let compositor = try Self.compositor()
        let layout = Self.layout([LayoutParticipant(id: "a", name: "Ann"), LayoutParticipant(id: "b", name: "Bob")], speaker: "b")
        let grey = YUVColor(y: 128, u: 128, v: 128)
        var canvas = compositor.makeCanvas()
        compositor.render(layout, pictures: ["a": VideoFrame(width: 64, height: 36, color: grey), "b": VideoFrame(width: 64, height: 36, color: grey)],
                          shares: [:], into: &canvas)
        let theme = Theme.named(.default)
        for tile in layout.tiles {
            // The outline: the highlight on the speaker, the border on the other.
            let edge = canvas.pixel(x: tile.rect.x, y: tile.rect.y + tile.rect.height / 2)
            #expect(edge == (tile.isActiveSpeaker ? theme.highlight : theme.border), "\(tile.participantID)")
            // The label: bright text somewhere in the bottom-left corner.
            var brightest: UInt8 = 0
            for y in (tile.rect.maxY - 40)..<(tile.rect.maxY - 4) {
                for x in (tile.rect.x + 6)..<(tile.rect.x + 80) { brightest = max(brightest, canvas.pixel(x: x, y: y).y) }
            }
            #expect(brightest > 200, "\(tile.participantID): no label text")
        }
    }

    @Test(arguments: Theme.Name.allCases)
    func themesHaveTheirBackgrounds(name: Theme.Name) throws {
        let compositor = try Self.compositor(name)
        var canvas = compositor.makeCanvas()
        compositor.render(Self.layout([LayoutParticipant(id: "a", name: "A")]), pictures: [:], shares: [:], into: &canvas)
        let background = canvas.pixel(x: 1, y: 1).y
        switch name {
        case .dark: #expect(background < 30)
        case .light: #expect(background > 220)
        case .default: #expect(background > 20 && background < 60)
        }
    }

    @Test func aScreenShareIsFittedWithBars() throws {
        let compositor = try Self.compositor()
        let layout = Self.layout([LayoutParticipant(id: "a", name: "Ann", isSharingScreen: true)], type: .spotlight)
        var canvas = compositor.makeCanvas()
        // A 4:3 share in a wider tile: bars left and right in the tile colour.
        compositor.render(layout, pictures: [:], shares: ["a": VideoFrame(width: 400, height: 300, color: Self.orange)], into: &canvas)
        let tile = layout.tiles[0].rect
        #expect(canvas.pixel(x: tile.x + 10, y: tile.y + tile.height / 2) == Theme.named(.default).tile)
        #expect(canvas.pixel(x: tile.x + tile.width / 2, y: tile.y + tile.height / 4).distance(to: Self.orange) <= 2)
    }

    @Test func textRendersWithARealFont() throws {
        let text = try TextRenderer()
        let short = text.render("Al", pixelSize: 20)
        let long = text.render("Alexandra", pixelSize: 20)
        #expect(short.width > 10 && long.width > short.width * 3)
        #expect(short.height >= 20)
        #expect(short.alpha.contains(255))
        #expect(throws: CompositeError.self) { try TextRenderer(fontPath: "/nonexistent.ttf") }
    }

    /// A camera picture a little larger than its tile is copied, not scaled: the tile shows the
    /// picture's middle pixel for pixel (luma and chroma), away from the outline and the label.
    @Test func aPictureALittleLargerThanItsTileIsCopiedPixelForPixel() throws {
        let compositor = try Self.compositor()
        let layout = Self.layout([LayoutParticipant(id: "a", name: "Ann"), LayoutParticipant(id: "b", name: "Bob")])
        let tile = try #require(layout.tiles.first { $0.participantID == "a" })
        let picture = Self.textured(tile.rect.width + 8, tile.rect.height + 4, seed: 3, time: 1)
        let placement = ContentPlacement.place(source: Size(width: picture.width, height: picture.height), in: tile.rect, mode: .fill)
        #expect(placement.crop.size == placement.destination.size)
        var canvas = compositor.makeCanvas()
        compositor.render(layout, pictures: ["a": picture], shares: [:], into: &canvas)
        var compared = 0
        for y in stride(from: tile.rect.y + 8, to: tile.rect.y + tile.rect.height / 2, by: 3) {
            for x in stride(from: tile.rect.x + 8, to: tile.rect.maxX - 8, by: 5) {
                let source = picture.pixel(x: placement.crop.x + x - placement.destination.x, y: placement.crop.y + y - placement.destination.y)
                #expect(canvas.pixel(x: x, y: y) == source, "at \(x),\(y)")
                compared += 1
            }
        }
        #expect(compared > 1000)
    }

    /// A picture with detail everywhere (gradients and a checker), so a misplaced or stale row
    /// shows.
    static func textured(_ width: Int, _ height: Int, seed: Int, time: Double) -> VideoFrame {
        var y = [UInt8](repeating: 0, count: width * height)
        for row in 0..<height {
            for column in 0..<width { y[row * width + column] = UInt8(truncatingIfNeeded: 16 + (row * 3 + column * 5 + seed * 37 + ((row / 8 + column / 8) % 2) * 60) % 220) }
        }
        let chroma = ((width + 1) / 2) * ((height + 1) / 2)
        let u = (0..<chroma).map { UInt8(truncatingIfNeeded: 64 + ($0 * 7 + seed * 11) % 128) }
        let v = (0..<chroma).map { UInt8(truncatingIfNeeded: 64 + ($0 * 13 + seed * 5) % 128) }
        return VideoFrame(width: width, height: height, y: y, u: u, v: v, mediaTime: time)
    }

    /// Drawing only what changed, on the planes drawn last time, gives the same picture as
    /// drawing everything on a fresh canvas, frame after frame: new pictures, a stalled one, a
    /// speaker change, a camera turned off, a rename, a screen share, a new geometry.
    @Test func drawingOnlyWhatChangedEqualsDrawingEverything() throws {
        let text = try TextRenderer()
        let incremental = try Compositor(canvas: Self.canvas, theme: Theme.named(.default), text: text)
        var canvas = incremental.makeCanvas()
        // The same canvas seen through rows longer than the picture, as an encoder's frame may be.
        let stride = Self.canvas.width + 64
        var padded = [UInt8](repeating: 7, count: stride * Self.canvas.height * 3 / 2)
        let paddedCompositor = try Compositor(canvas: Self.canvas, theme: Theme.named(.default), text: text)
        let ann = LayoutParticipant(id: "a", name: "Ann"), bob = LayoutParticipant(id: "b", name: "Bob")
        let cy = LayoutParticipant(id: "c", name: "Cy Young")
        let stalled = Self.textured(640, 360, seed: 99, time: 0)
        struct Step { let participants: [LayoutParticipant]; let speaker: String?; let pictures: [String: VideoFrame]; let shares: [String: VideoFrame] }
        var steps: [Step] = []
        for frame in 0..<4 {
            steps.append(Step(participants: [ann, bob], speaker: nil,
                              pictures: ["a": Self.textured(640, 360, seed: frame, time: Double(frame)), "b": stalled], shares: [:]))
        }
        steps.append(Step(participants: [ann, bob], speaker: "b", pictures: ["a": steps[3].pictures["a"] ?? stalled, "b": stalled], shares: [:]))
        steps.append(Step(participants: [ann, LayoutParticipant(id: "b", name: "Bob", hasCamera: false)], speaker: "b",
                          pictures: ["a": steps[3].pictures["a"] ?? stalled], shares: [:]))
        steps.append(Step(participants: [LayoutParticipant(id: "a", name: "Annabel"), bob], speaker: "b",
                          pictures: ["a": steps[3].pictures["a"] ?? stalled], shares: [:]))
        for frame in 0..<3 {
            steps.append(Step(participants: [ann, bob, cy], speaker: "a",
                              pictures: ["a": Self.textured(320, 240, seed: frame + 10, time: Double(frame + 10)), "c": stalled], shares: [:]))
        }
        steps.append(Step(participants: [LayoutParticipant(id: "a", name: "Ann", isSharingScreen: true), bob], speaker: "a",
                          pictures: ["b": stalled], shares: ["a": Self.textured(400, 300, seed: 5, time: 20)]))
        steps.append(steps[steps.count - 1])
        // A fitted share with bars beside it, its picture new on every frame.
        for frame in 0..<3 {
            steps.append(Step(participants: [LayoutParticipant(id: "a", name: "Ann", isSharingScreen: true), bob], speaker: "b",
                              pictures: ["b": stalled], shares: ["a": Self.textured(400, 300, seed: 30 + frame, time: Double(30 + frame))]))
        }
        // Pictures of another shape in the same tiles.
        for frame in 0..<2 {
            steps.append(Step(participants: [ann, bob], speaker: nil,
                              pictures: ["a": Self.textured(320, 320, seed: 40 + frame, time: Double(40 + frame)), "b": Self.textured(640, 200, seed: 50 + frame, time: Double(50 + frame))], shares: [:]))
        }
        for (index, step) in steps.enumerated() {
            let layout = Self.layout(step.participants, speaker: step.speaker)
            incremental.render(layout, pictures: step.pictures, shares: step.shares, into: &canvas)
            let fresh = try Self.compositor()
            var expected = fresh.makeCanvas()
            fresh.render(layout, pictures: step.pictures, shares: step.shares, into: &expected)
            #expect(Self.differingBytes(canvas, expected) == 0, "step \(index)")
            let width = Self.canvas.width, height = Self.canvas.height
            let matches = padded.withUnsafeMutableBufferPointer { buffer -> Int in
                guard let base = buffer.baseAddress else { return -1 }
                let image = PlanarImage(width: width, height: height, y: base, u: base + stride * height,
                                        v: base + stride * height + stride / 2 * height / 2, yStride: stride, uStride: stride / 2, vStride: stride / 2)
                paddedCompositor.render(layout, pictures: step.pictures, shares: step.shares, into: image)
                return Self.differingBytes(VideoFrame(copying: image), expected)
            }
            #expect(matches == 0, "step \(index), padded rows")
        }
    }

    static func differingBytes(_ a: VideoFrame, _ b: VideoFrame) -> Int {
        zip(a.y, b.y).filter { $0 != $1 }.count + zip(a.u, b.u).filter { $0 != $1 }.count + zip(a.v, b.v).filter { $0 != $1 }.count
    }
}
