import Layout
import MediaSource
import Pipeline
import Testing

/// `LayerChooser`: each camera steps to the smallest simulcast layer that fills its tile, one
/// level per `settle`, up again when its tile grows, to the lowest when off screen, and stops
/// asking once a publisher shows it has no more layers that way.
@Suite struct LayerChooserTests {
    static func layout(_ tiles: [(String, Int, Int)], content: Tile.Content = .camera) -> Layout {
        Layout(tiles: tiles.map { Tile(participantID: $0.0, name: $0.0, content: content, role: .grid,
                                       rect: Rect(x: 0, y: 0, width: $0.1, height: $0.2), isActiveSpeaker: false) },
               slotOrder: tiles.map(\.0), canvas: Size(width: 1280, height: 720))
    }

    /// A 720p camera in a quarter of a 720p grid: medium (640x360), then nothing more; the
    /// step waits `settle`, and nothing is asked before a picture is decoded.
    @Test func aCameraInAQuarterTileTakesTheHalfLayer() {
        var chooser = LayerChooser(settle: 3)
        chooser.show(Self.layout([("ada", 640, 360)]), participants: ["ada"])
        #expect(chooser.poll(now: 0).isEmpty, "nothing decoded yet")
        chooser.decoded(participantID: "ada", width: 1280, height: 720)
        #expect(chooser.poll(now: 0.1).map(\.level) == [.medium])
        chooser.decoded(participantID: "ada", width: 640, height: 360)
        #expect(chooser.poll(now: 1).isEmpty && chooser.poll(now: 3.2).isEmpty && chooser.poll(now: 9).isEmpty)
        #expect(chooser.level(of: "ada") == .medium && chooser.summary == ["ada medium 640x360 for 640x360"])
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
