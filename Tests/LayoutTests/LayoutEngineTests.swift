import JobSpec
import Layout
import Testing

@Suite struct LayoutEngineTests {
    static let landscape = Size(width: 1280, height: 720)
    static let portrait = Size(width: 720, height: 1280)

    static func people(_ count: Int) -> [LayoutParticipant] {
        (0..<count).map { LayoutParticipant(id: "p\($0)", name: "Person \($0)", joinedAt: Double($0)) }
    }

    static func configuration(_ type: LayoutType, _ priority: LayoutPriority = .speaker, gridSize: Int = 25,
                              canvas: Size = landscape) -> LayoutConfiguration
    {
        LayoutConfiguration(type: type, priority: priority, gridSize: gridSize, canvas: canvas)
    }

    /// Every tile is inside the canvas, even-aligned, non-empty, and no two overlap.
    static func checkGeometry(_ layout: Layout, _ note: String) {
        let canvas = Rect(x: 0, y: 0, width: layout.canvas.width, height: layout.canvas.height)
        for (index, tile) in layout.tiles.enumerated() {
            #expect(canvas.contains(tile.rect), "\(note): \(tile.rect) outside the canvas")
            #expect(tile.rect.isEvenAligned, "\(note): \(tile.rect) not even-aligned")
            #expect(!tile.rect.isEmpty, "\(note): empty tile")
            for other in layout.tiles[(index + 1)...] {
                #expect(!tile.rect.intersects(other.rect), "\(note): \(tile.rect) overlaps \(other.rect)")
            }
        }
    }

    @Test(arguments: LayoutType.allCases, [LayoutPriority.speaker, .pin])
    func geometryHoldsFor1To25ParticipantsInBothOrientations(type: LayoutType, priority: LayoutPriority) {
        for canvas in [Self.landscape, Self.portrait, Size(width: 854, height: 480)] {
            for count in 1...25 {
                for gridSize in [1, 4, 25] {
                    var people = Self.people(count)
                    if priority == .pin, count > 2 { people[2].pinnedAt = 1 }
                    let layout = LayoutEngine.layout(participants: people, activeSpeaker: "p0",
                                                     configuration: Self.configuration(type, priority, gridSize: gridSize, canvas: canvas))
                    let note = "\(type) \(priority) \(canvas) n=\(count) grid=\(gridSize)"
                    Self.checkGeometry(layout, note)
                    switch type {
                    case .grid: #expect(layout.tiles.count == min(count, gridSize), "\(note)")
                    case .sidebar: #expect(layout.tiles.count == 1 + min(count - 1, gridSize), "\(note)")
                    case .spotlight: #expect(layout.tiles.count == 1, "\(note)")
                    }
                }
            }
        }
    }

    @Test func gridUsesTheCanvasAndPutsTwoSideBySideInLandscape() {
        let layout = LayoutEngine.layout(participants: Self.people(2), activeSpeaker: nil, configuration: Self.configuration(.grid))
        #expect(layout.tiles.count == 2)
        #expect(layout.tiles[0].rect.y == layout.tiles[1].rect.y)
        #expect(layout.tiles[0].rect.maxX < layout.tiles[1].rect.x)
        let portrait = LayoutEngine.layout(participants: Self.people(2), activeSpeaker: nil,
                                           configuration: Self.configuration(.grid, canvas: Self.portrait))
        #expect(portrait.tiles[0].rect.x == portrait.tiles[1].rect.x)
        #expect(portrait.tiles[0].rect.maxY < portrait.tiles[1].rect.y)
    }

    @Test func aSquareCountMakesASquareGridAndALastRowIsCentred() {
        let nine = LayoutEngine.grid(count: 9, in: Rect(x: 0, y: 0, width: 1280, height: 720), gap: 8)
        #expect(Set(nine.map(\.x)).count == 3 && Set(nine.map(\.y)).count == 3)
        let three = LayoutEngine.grid(count: 3, in: Rect(x: 0, y: 0, width: 1280, height: 720), gap: 8)
        // Two on the first row, one centred below.
        #expect(three[0].y == three[1].y && three[2].y > three[0].y)
        #expect(abs((three[2].x + three[2].width / 2) - 640) <= 2)
    }

    @Test func speakerPriorityShowsTheMostRecentSpeakers() {
        var people = Self.people(6)
        people[5].lastSpokeAt = 10
        people[4].lastSpokeAt = 9
        let layout = LayoutEngine.layout(participants: people, activeSpeaker: "p5", configuration: Self.configuration(.grid, gridSize: 4))
        #expect(layout.tiles.map(\.participantID) == ["p5", "p4", "p0", "p1"])
        #expect(layout.tiles.first { $0.participantID == "p5" }?.isActiveSpeaker == true)
        #expect(layout.tiles.filter(\.isActiveSpeaker).count == 1)
    }

    @Test func pinPriorityPutsPinnedParticipantsFirst() {
        var people = Self.people(6)
        people[5].lastSpokeAt = 10
        people[3].pinnedAt = 2
        people[1].pinnedAt = 1
        let grid = LayoutEngine.layout(participants: people, activeSpeaker: "p5", configuration: Self.configuration(.grid, .pin, gridSize: 3))
        #expect(grid.tiles.map(\.participantID) == ["p1", "p3", "p5"])
        let sidebar = LayoutEngine.layout(participants: people, activeSpeaker: "p5", configuration: Self.configuration(.sidebar, .pin))
        #expect(sidebar.tiles.first?.participantID == "p1")
        #expect(sidebar.tiles.first?.role == .main)
        let spotlight = LayoutEngine.layout(participants: people, activeSpeaker: "p5", configuration: Self.configuration(.spotlight, .pin))
        #expect(spotlight.tiles.map(\.participantID) == ["p1", "p3"])
        // With nobody pinned, PIN falls back to the active speaker.
        let nobody = LayoutEngine.layout(participants: Self.people(3), activeSpeaker: "p2", configuration: Self.configuration(.spotlight, .pin))
        #expect(nobody.tiles.map(\.participantID) == ["p2"])
    }

    @Test func sidebarPutsTheSpeakerInTheMainTileAndTheRestInAStrip() {
        let people = Self.people(5)
        let landscape = LayoutEngine.layout(participants: people, activeSpeaker: "p3", configuration: Self.configuration(.sidebar, gridSize: 3))
        #expect(landscape.tiles[0].participantID == "p3")
        #expect(landscape.tiles.count == 4)
        let main = landscape.tiles[0].rect
        for strip in landscape.tiles.dropFirst() {
            #expect(strip.rect.x > main.maxX, "the strip is right of the main tile in landscape")
            #expect(strip.role == .grid)
        }
        let portrait = LayoutEngine.layout(participants: people, activeSpeaker: "p3",
                                           configuration: Self.configuration(.sidebar, gridSize: 3, canvas: Self.portrait))
        for strip in portrait.tiles.dropFirst() {
            #expect(strip.rect.y > portrait.tiles[0].rect.maxY, "the strip is below the main tile in portrait")
        }
    }

    @Test func spotlightShowsOnlyTheActiveSpeaker() {
        let layout = LayoutEngine.layout(participants: Self.people(4), activeSpeaker: "p2", configuration: Self.configuration(.spotlight))
        #expect(layout.tiles.count == 1)
        #expect(layout.tiles[0].participantID == "p2")
        #expect(layout.tiles[0].isActiveSpeaker)
        #expect(layout.tiles[0].rect.area > 1200 * 680)
    }

    @Test(arguments: LayoutType.allCases)
    func aScreenShareTakesTheMainAreaAndIsFitted(type: LayoutType) {
        var people = Self.people(3)
        people[1].isSharingScreen = true
        let layout = LayoutEngine.layout(participants: people, activeSpeaker: "p0", configuration: Self.configuration(type))
        let main = layout.tiles[0]
        #expect(main.content == .screenShare)
        #expect(main.participantID == "p1")
        #expect(main.role == .main)
        #expect(main.placementMode == .fit)
        #expect(layout.tiles.filter { $0.content == .screenShare }.count == 1)
        if type == .spotlight {
            #expect(layout.tiles.count == 1)
        } else {
            // The cameras (the sharer's too) move to the strip.
            #expect(layout.tiles.dropFirst().map(\.participantID).sorted() == ["p0", "p1", "p2"])
        }
    }

    @Test func aCameraOffParticipantIsAPlaceholderTile() {
        var people = Self.people(2)
        people[1].hasCamera = false
        let layout = LayoutEngine.layout(participants: people, activeSpeaker: nil, configuration: Self.configuration(.grid))
        #expect(layout.tiles.first { $0.participantID == "p1" }?.content == .cameraOff)
        #expect(layout.tiles.first { $0.participantID == "p0" }?.content == .camera)
    }

    @Test func aChangeOfSpeakingOrderInsideTheVisibleSetMovesNobody() {
        var people = Self.people(4)
        let configuration = Self.configuration(.grid, gridSize: 4)
        let first = LayoutEngine.layout(participants: people, activeSpeaker: nil, configuration: configuration)
        people[3].lastSpokeAt = 5
        people[2].lastSpokeAt = 6
        let second = LayoutEngine.layout(participants: people, activeSpeaker: "p2", configuration: configuration, previous: first)
        func rects(_ layout: Layout) -> [String: Rect] {
            Dictionary(uniqueKeysWithValues: layout.tiles.map { ($0.participantID, $0.rect) })
        }
        #expect(rects(first) == rects(second))
    }

    @Test func aNewSpeakerTakesTheSlotOfTheOneWhoLeftTheGrid() {
        var people = Self.people(5)
        let configuration = Self.configuration(.grid, gridSize: 4)
        for index in 0..<4 { people[index].lastSpokeAt = Double(index) }
        let first = LayoutEngine.layout(participants: people, activeSpeaker: "p3", configuration: configuration)
        #expect(Set(first.tiles.map(\.participantID)) == ["p0", "p1", "p2", "p3"])
        let evictedRect = first.tiles.first { $0.participantID == "p0" }?.rect
        // p4 speaks: p0, the least recent speaker, leaves the grid and p4 takes its place.
        people[4].lastSpokeAt = 10
        let second = LayoutEngine.layout(participants: people, activeSpeaker: "p4", configuration: configuration, previous: first)
        #expect(second.tiles.first { $0.participantID == "p4" }?.rect == evictedRect)
        for id in ["p1", "p2", "p3"] {
            #expect(second.tiles.first { $0.participantID == id }?.rect == first.tiles.first { $0.participantID == id }?.rect)
        }
    }

    @Test func gridSizeIsClampedTo1Through25() {
        #expect(LayoutConfiguration(gridSize: 0).gridSize == 1)
        #expect(LayoutConfiguration(gridSize: 99).gridSize == 25)
    }

    @Test func anEmptyRoomHasNoTiles() {
        #expect(LayoutEngine.layout(participants: [], activeSpeaker: nil, configuration: Self.configuration(.grid)).tiles.isEmpty)
    }
}

@Suite struct ContentPlacementTests {
    @Test func aMatchingShapeFillsTheTileWithoutCrop() {
        let placement = ContentPlacement.place(source: Size(width: 640, height: 360), in: Rect(x: 10, y: 20, width: 320, height: 180), mode: .fill)
        #expect(placement.crop == Rect(x: 0, y: 0, width: 640, height: 360))
        #expect(placement.destination == Rect(x: 10, y: 20, width: 320, height: 180))
    }

    @Test func aCameraIsCentreCroppedByAtMostAQuarter() {
        // 16:9 into a square tile would need 44 % cut; only 25 % is cut and the rest is fitted.
        let placement = ContentPlacement.place(source: Size(width: 640, height: 360), in: Rect(x: 0, y: 0, width: 400, height: 400), mode: .fill)
        #expect(placement.crop.width == 480)
        #expect(placement.crop.x == 80)
        #expect(placement.destination.width == 400)
        #expect(placement.destination.height == 300)
        #expect(placement.destination.y == 50)
        // A small difference of shape is all crop.
        let slight = ContentPlacement.place(source: Size(width: 640, height: 360), in: Rect(x: 0, y: 0, width: 600, height: 360), mode: .fill)
        #expect(slight.destination == Rect(x: 0, y: 0, width: 600, height: 360))
    }

    @Test func aPictureALittleLargerThanItsTileIsShownUnscaled() {
        // A 640x360 simulcast layer in a 628x348 tile of a 720p grid: the middle 628x348.
        let layer = ContentPlacement.place(source: Size(width: 640, height: 360), in: Rect(x: 12, y: 8, width: 628, height: 348), mode: .fill)
        #expect(layer.destination == Rect(x: 12, y: 8, width: 628, height: 348))
        #expect(layer.crop == Rect(x: 6, y: 4, width: 628, height: 348))
        // Exactly the tile's size: all of it, pixel for pixel.
        let exact = ContentPlacement.place(source: Size(width: 320, height: 180), in: Rect(x: 0, y: 0, width: 320, height: 180), mode: .fill)
        #expect(exact.crop == Rect(x: 0, y: 0, width: 320, height: 180))
        // More than 5 % larger is scaled, and so is a screen share (fit) of any size.
        let larger = ContentPlacement.place(source: Size(width: 680, height: 384), in: Rect(x: 0, y: 0, width: 640, height: 360), mode: .fill)
        #expect(larger.crop.size != larger.destination.size)
        let share = ContentPlacement.place(source: Size(width: 640, height: 360), in: Rect(x: 0, y: 0, width: 628, height: 348), mode: .fit)
        #expect(share.crop == Rect(x: 0, y: 0, width: 640, height: 360))
        // Never more than a quarter cut: 640x480 in 628x348 would keep 348 of 480 rows.
        let tall = ContentPlacement.place(source: Size(width: 640, height: 480), in: Rect(x: 0, y: 0, width: 628, height: 348), mode: .fill)
        #expect(tall.crop.height >= 360 && tall.crop.size != tall.destination.size)
        // Smaller than the tile is scaled up to fill it.
        let smaller = ContentPlacement.place(source: Size(width: 620, height: 344), in: Rect(x: 0, y: 0, width: 628, height: 348), mode: .fill)
        #expect(smaller.destination.width >= 626 && smaller.destination.height == 348)
        #expect(smaller.crop.size != smaller.destination.size)
    }

    @Test func aTallCropKeepsTheTopWhereHeadsAre() {
        let placement = ContentPlacement.place(source: Size(width: 360, height: 640), in: Rect(x: 0, y: 0, width: 360, height: 500), mode: .fill)
        // 640 → 500: 140 rows cut, 40 % of them from the top.
        #expect(placement.crop.height == 500)
        #expect(placement.crop.y == 56)
    }

    @Test func aScreenShareIsFittedNeverCropped() {
        let placement = ContentPlacement.place(source: Size(width: 1920, height: 1200), in: Rect(x: 0, y: 0, width: 960, height: 720), mode: .fit)
        #expect(placement.crop == Rect(x: 0, y: 0, width: 1920, height: 1200))
        #expect(placement.destination.width == 960)
        #expect(placement.destination.height == 600)
    }

    @Test func everythingIsEvenAligned() {
        for width in stride(from: 33, to: 700, by: 37) {
            for height in stride(from: 31, to: 500, by: 41) {
                let placement = ContentPlacement.place(source: Size(width: 641, height: 361), in: Rect(x: 3, y: 5, width: width, height: height), mode: .fill)
                #expect(placement.crop.isEvenAligned && placement.destination.isEvenAligned)
                #expect(Rect(x: 2, y: 4, width: width + 2, height: height + 2).contains(placement.destination))
            }
        }
    }
}
