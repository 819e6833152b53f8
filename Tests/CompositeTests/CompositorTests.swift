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
}
