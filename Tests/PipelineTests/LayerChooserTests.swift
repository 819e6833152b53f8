import Layout
import MediaSource
import Pipeline
import Testing

/// `LayerChooser`: each camera is first asked for at the layer its tile needs if its publisher
/// sends Chromium's layers of a 720p camera, then steps to the smallest simulcast layer that
/// fills its tile, one level per `settle`, up again when its tile grows, to the lowest when off
/// screen, and stops asking once a publisher shows it has no more layers that way.
@Suite struct LayerChooserTests {
    static func layout(_ tiles: [(String, Int, Int)], content: Tile.Content = .camera) -> Layout {
        Layout(tiles: tiles.map { Tile(participantID: $0.0, name: $0.0, content: content, role: .grid,
                                       rect: Rect(x: 0, y: 0, width: $0.1, height: $0.2), isActiveSpeaker: false) },
               slotOrder: tiles.map(\.0), canvas: Size(width: 1280, height: 720))
    }

    /// A 720p camera in a quarter of a 720p grid: medium (640x360) is asked for as soon as the
    /// camera is announced, before anything is decoded; the top layer's pictures still decoded
    /// meanwhile (the room switches at the layer's next keyframe) ask for nothing within
    /// `settle`, and the half layer once decoded is kept.
    @Test func aCameraInAQuarterTileTakesTheHalfLayer() {
        var chooser = LayerChooser(settle: 3)
        chooser.show(Self.layout([("ada", 640, 360)]), participants: ["ada"])
        #expect(chooser.poll(now: 0).map(\.level) == [.medium], "asked before anything is decoded")
        #expect(chooser.poll(now: 0.1).isEmpty)
        chooser.decoded(participantID: "ada", width: 1280, height: 720)
        #expect(chooser.poll(now: 0.2).isEmpty && chooser.poll(now: 2.9).isEmpty, "settling")
        chooser.decoded(participantID: "ada", width: 640, height: 360)
        #expect(chooser.poll(now: 3.2).isEmpty && chooser.poll(now: 9).isEmpty)
        #expect(chooser.level(of: "ada") == .medium && chooser.summary == ["ada medium 640x360 for 640x360"])
    }

    /// Before a camera's first picture its layer follows its tile, taking the publisher for
    /// Chromium's three layers of a 720p camera: the whole canvas keeps the top, a 2x2 or 3x3
    /// grid's tile the half, a 4x4 grid's the quarter, off screen the lowest; more cameras
    /// announced shrink a tile and the ask follows at once, with no `settle`.
    @Test func theFirstAskFollowsTheTileUntilAPictureIsDecoded() {
        var chooser = LayerChooser(settle: 3)
        chooser.show(Self.layout([("ada", 1280, 720)]), participants: ["ada"])
        #expect(chooser.poll(now: 0).isEmpty && chooser.level(of: "ada") == .high)
        chooser.show(Self.layout([("ada", 628, 348), ("ben", 628, 348)]), participants: ["ada", "ben"])
        #expect(chooser.poll(now: 0.1).map { "\($0.participantID) \($0.level)" } == ["ada medium", "ben medium"])
        chooser.show(Self.layout([("ada", 427, 240), ("ben", 310, 174)]), participants: ["ada", "ben", "cy"])
        #expect(chooser.poll(now: 0.2).map { "\($0.participantID) \($0.level)" } == ["ben low", "cy low"])
        #expect(chooser.summary == ["ada medium nothing decoded for 427x240", "ben low nothing decoded for 310x174",
                                    "cy low nothing decoded for no tile"])
    }

    /// The room may forward a lower layer than asked while the publisher's upper ones start
    /// (a 320x180 picture for the half layer): the step up then brings 1280x720, and the next
    /// step goes back down to the half layer instead of keeping the top one.
    @Test func aStepUpFromALowerLayerThanAskedIsNotKept() {
        var chooser = LayerChooser(settle: 3)
        chooser.show(Self.layout([("fay", 628, 348)]), participants: ["fay"])
        #expect(chooser.poll(now: 0).map(\.level) == [.medium])
        chooser.decoded(participantID: "fay", width: 320, height: 180)
        #expect(chooser.poll(now: 3).map(\.level) == [.high])
        chooser.decoded(participantID: "fay", width: 1280, height: 720)
        #expect(chooser.poll(now: 6).map(\.level) == [.medium])
        chooser.decoded(participantID: "fay", width: 640, height: 360)
        #expect(chooser.poll(now: 9).isEmpty && chooser.poll(now: 30).isEmpty && chooser.level(of: "fay") == .medium)
    }

    /// Two layers a quarter and the whole apart, the room serving the whole for medium: a
    /// camera at the lowest whose tile grows steps up to the whole, tries the quarter once more
    /// (a step up alone does not tell such a pair from a lower layer forwarded while the upper
    /// ones start), finds it short, goes back and stays.
    @Test func layersFarApartCostOneSwingGoingUp() {
        var chooser = LayerChooser(settle: 3)
        chooser.show(Self.layout([]), participants: ["hal"])
        #expect(chooser.poll(now: 0).map(\.level) == [.low], "off screen")
        chooser.decoded(participantID: "hal", width: 320, height: 180)
        chooser.show(Self.layout([("hal", 628, 348)]), participants: ["hal"])
        #expect(chooser.poll(now: 3).map(\.level) == [.medium])
        chooser.decoded(participantID: "hal", width: 1280, height: 720)
        #expect(chooser.poll(now: 6).map(\.level) == [.low])
        chooser.decoded(participantID: "hal", width: 320, height: 180)
        #expect(chooser.poll(now: 9).map(\.level) == [.medium], "the quarter is short: back")
        chooser.decoded(participantID: "hal", width: 1280, height: 720)
        #expect(chooser.poll(now: 12).isEmpty && chooser.poll(now: 40).isEmpty && chooser.level(of: "hal") == .medium)
    }

    /// A camera that never sends: its ask follows the tile freely for `settle` after it is
    /// announced, then no more often than once per `settle` however often its tile changes (a
    /// speaker-driven layout), since each ask costs the publisher a keyframe.
    @Test func aCameraThatNeverSendsIsNotAskedAtEveryTileChange() {
        var chooser = LayerChooser(settle: 3)
        var asks: [String] = []
        for step in 0..<40 {
            let now = Double(step) * 0.25
            let big = step % 2 == 0
            chooser.show(Self.layout([("gus", big ? 1280 : 320, big ? 720 : 180)]), participants: ["gus"])
            asks += chooser.poll(now: now).map { "\(now) \($0.level)" }
        }
        #expect(asks == ["0.25 low", "0.5 high", "0.75 low", "1.0 high", "1.25 low", "1.5 high", "1.75 low", "2.0 high", "2.25 low",
                         "2.5 high", "2.75 low", "6.0 high", "9.25 low"], "\(asks)")
    }

    /// A publisher whose top layer is 640x360 (three layers: 160x90, 320x180, 640x360, where
    /// Chromium's 720p camera is taken for granted at first): the first ask falls short
    /// of a 628x348 tile, and once its pictures are decoded it steps up to the layer that fills it.
    @Test func aSmallerPublisherThanAssumedStepsUpAfterItsFirstPictures() {
        var chooser = LayerChooser(settle: 3)
        chooser.show(Self.layout([("di", 628, 348)]), participants: ["di"])
        #expect(chooser.poll(now: 0).map(\.level) == [.medium])
        chooser.decoded(participantID: "di", width: 320, height: 180)
        #expect(chooser.poll(now: 1).isEmpty, "settling")
        #expect(chooser.poll(now: 3).map(\.level) == [.high])
        chooser.decoded(participantID: "di", width: 640, height: 360)
        #expect(chooser.poll(now: 6).isEmpty && chooser.poll(now: 20).isEmpty)
    }

    /// A small tile (a 16-person grid) steps down twice, `settle` apart; off screen goes to the
    /// lowest; a tile that grows (SPOTLIGHT) steps back up as far as the picture falls short.
    @Test func smallTilesStepDownAndAGrowingTileStepsUp() {
        var chooser = LayerChooser(settle: 3)
        chooser.show(Self.layout([("ada", 320, 180)]), participants: ["ada", "ben"])
        chooser.decoded(participantID: "ada", width: 1280, height: 720)
        chooser.decoded(participantID: "ben", width: 1280, height: 720)
        let first = chooser.poll(now: 0)
        #expect(first.map(\.participantID) == ["ada", "ben"] && first.map(\.level) == [.medium, .medium])
        chooser.decoded(participantID: "ada", width: 640, height: 360)
        chooser.decoded(participantID: "ben", width: 640, height: 360)
        #expect(chooser.poll(now: 2).isEmpty, "settling")
        #expect(chooser.poll(now: 3).map(\.level) == [.low, .low])
        chooser.decoded(participantID: "ada", width: 320, height: 180)
        chooser.decoded(participantID: "ben", width: 320, height: 180)
        #expect(chooser.poll(now: 6.5).isEmpty)
        // Ada alone on the canvas now: two steps up, and Ben stays at the lowest, unseen.
        chooser.show(Self.layout([("ada", 1280, 720)]), participants: ["ada", "ben"])
        #expect(chooser.poll(now: 7).map { "\($0.participantID) \($0.level)" } == ["ada medium"])
        chooser.decoded(participantID: "ada", width: 640, height: 360)
        #expect(chooser.poll(now: 10).map { "\($0.participantID) \($0.level)" } == ["ada high"])
        chooser.decoded(participantID: "ada", width: 1280, height: 720)
        #expect(chooser.poll(now: 14).isEmpty && chooser.level(of: "ben") == .low)
    }

    /// A publisher with one layer: two steps down change nothing, and then it is left alone
    /// until its tile changes; a participant who leaves is forgotten.
    @Test func aPublisherWithOneLayerIsLeftAloneAfterTwoSteps() {
        var chooser = LayerChooser(settle: 3)
        chooser.show(Self.layout([("cy", 320, 180)]), participants: ["cy"])
        chooser.decoded(participantID: "cy", width: 1280, height: 720)
        #expect(chooser.poll(now: 0).map(\.level) == [.medium])
        chooser.decoded(participantID: "cy", width: 1280, height: 720)
        #expect(chooser.poll(now: 3).map(\.level) == [.low])
        chooser.decoded(participantID: "cy", width: 1280, height: 720)
        #expect(chooser.poll(now: 6).isEmpty && chooser.poll(now: 30).isEmpty, "no lower layer to ask for")
        chooser.show(Self.layout([("cy", 160, 90)]), participants: ["cy"])
        #expect(chooser.poll(now: 31).isEmpty, "already at the lowest")
        chooser.show(Self.layout([]), participants: [])
        #expect(chooser.level(of: "cy") == nil && chooser.summary.isEmpty)
    }

    /// A screen share's tile is not a camera's: the camera of someone sharing, not on screen,
    /// goes down.
    @Test func onlyCameraTilesCount() {
        var chooser = LayerChooser(settle: 3)
        chooser.show(Self.layout([("di", 1280, 720)], content: .screenShare), participants: ["di"])
        chooser.decoded(participantID: "di", width: 640, height: 360)
        #expect(chooser.poll(now: 0).map(\.level) == [.medium])
    }

    /// Two layers a quarter and the whole apart: for a tile that needs half, the quarter falls
    /// short, so the camera goes back to the whole and stays there, instead of swinging between
    /// them every `settle`.
    @Test func layersFarApartDoNotSwing() {
        var chooser = LayerChooser(settle: 3)
        chooser.show(Self.layout([("eve", 640, 360)]), participants: ["eve"])
        chooser.decoded(participantID: "eve", width: 1280, height: 720)
        #expect(chooser.poll(now: 0).map(\.level) == [.medium])
        // Medium is the whole too (two layers): nothing changes, so on to low.
        #expect(chooser.poll(now: 3).map(\.level) == [.low])
        chooser.decoded(participantID: "eve", width: 320, height: 180)
        #expect(chooser.poll(now: 6).map(\.level) == [.medium], "the quarter is too small: back")
        chooser.decoded(participantID: "eve", width: 1280, height: 720)
        #expect(chooser.poll(now: 9).isEmpty && chooser.poll(now: 12).isEmpty && chooser.poll(now: 30).isEmpty)
        #expect(chooser.summary == ["eve medium 1280x720 for 640x360"])
    }
}
