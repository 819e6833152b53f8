import Layout
import MediaSource

/// Which simulcast layer of each participant's camera the recorder asks for (issue 26 item 8):
/// the smallest that still fills the camera's tile, so a 720p camera shown in a quarter of a
/// 720p grid is received and decoded at 640x360, and a camera not on screen (past the grid's
/// size) at its lowest. Sans-IO: tiles, decoded picture sizes and the time come in; requests
/// come out.
///
/// The chooser does not know a publisher's layers (Chromium sends a quarter, a half and the
/// whole; another sender two or one). Until anything of a camera is decoded, it takes them to be
/// Chromium's for a 720p camera (`assumedLayers`) and asks for the one its tile needs as soon as
/// the camera is announced: the ask goes over the signalling socket while ICE and DTLS take
/// round trips, so the room forwards that layer from the first picture rather than the top one
/// (whose pictures, decoded until a step down, cost a recording about 20 MB more at its peak).
/// While nothing is decoded the ask follows the tile freely for `settle` (cameras announced one
/// after another shrink it), then at most once per `settle`.
///
/// Then it steps one level at a time and watches what is decoded next: a picture about twice
/// what its tile needs (scaled by 0.55 or less to fill it) goes a level down, whose half then
/// fills the tile within 10%; one more than 10% short of it goes a level up. Once steps reach
/// the last level without changing what is decoded (a publisher with fewer layers), that way is
/// not asked again until the tile changes; a step down that leaves the tile short (layers a
/// quarter and the whole apart) goes back and stays. `settle` between steps lets the SFU wait
/// for the new layer's keyframe (it asks the publisher for one at once), and keeps a camera
/// from flapping.
public struct LayerChooser {
    struct Camera {
        var level = SimulcastLevel.high
        /// The tile's size in the composite; nil when the camera is not on screen.
        var tile: (width: Int, height: Int)?
        var decoded: (width: Int, height: Int)?
        var changedAt = -Double.infinity
        /// The last step: the level it left and the decoded size then, to see whether it took.
        var lastStep: (from: SimulcastLevel, decoded: (width: Int, height: Int))?
        var noLower = false
        var noHigher = false
        /// When a poll first saw it (its announcement, give or take a tenth of a second).
        var firstSeenAt: Double?
    }

    /// The layers a camera is taken to have before anything of it is decoded: Chromium's
    /// simulcast of a 1280x720 camera, lowest first.
    static let assumedLayers: [(level: SimulcastLevel, width: Int, height: Int)] = [(.low, 320, 180), (.medium, 640, 360), (.high, 1280, 720)]

    private var cameras: [String: Camera] = [:]
    /// Seconds between two steps of one camera.
    public let settle: Double

    public init(settle: Double = 3) {
        self.settle = settle
    }

    /// The layer asked for a participant's camera (high until the first ask).
    public func level(of participantID: String) -> SimulcastLevel? { cameras[participantID]?.level }

    /// Each camera's layer now, what was last decoded of it and the tile it fills (nil: not
    /// on screen), for logs and benchmarks: `ada medium 640x360 for 640x360`.
    public var summary: [String] {
        cameras.keys.sorted().compactMap { id in
            guard let camera = cameras[id] else { return nil }
            let decoded = camera.decoded.map { "\($0.width)x\($0.height)" } ?? "nothing decoded"
            let tile = camera.tile.map { "\($0.width)x\($0.height)" } ?? "no tile"
            return "\(id) \(camera.level) \(decoded) for \(tile)"
        }
    }

    /// The composite's layout now: each camera's tile, and which cameras are off screen.
    public mutating func show(_ layout: Layout, participants: [String]) {
        show([layout], participants: participants)
    }

    /// The layouts of a run's composites now (it may make several, `CompositeBranch`): each
    /// camera's largest tile in any of them, and which cameras are off screen in all.
    public mutating func show(_ layouts: [Layout], participants: [String]) {
        var tiles: [String: (Int, Int)] = [:]
        for layout in layouts {
            for tile in layout.tiles where tile.content == .camera {
                let largest = tiles[tile.participantID].map { $0.0 * $0.1 } ?? 0
                if tile.rect.width * tile.rect.height > largest { tiles[tile.participantID] = (tile.rect.width, tile.rect.height) }
            }
        }
        for id in Set(participants).union(cameras.keys) {
            guard participants.contains(id) else {
                cameras[id] = nil
                continue
            }
            var camera = cameras[id] ?? Camera()
            let tile = tiles[id]
            if tile?.0 != camera.tile?.width || tile?.1 != camera.tile?.height {
                camera.tile = tile
                camera.noLower = false
                camera.noHigher = false
            }
            cameras[id] = camera
        }
    }

    /// A picture of a participant's camera was decoded at this size.
    public mutating func decoded(participantID: String, width: Int, height: Int) {
        guard var camera = cameras[participantID] else { return }
        camera.decoded = (width, height)
        cameras[participantID] = camera
    }

    /// The steps to ask for now, at most one per camera.
    public mutating func poll(now: Double) -> [(participantID: String, level: SimulcastLevel)] {
        var steps: [(String, SimulcastLevel)] = []
        for id in cameras.keys.sorted() {
            guard var camera = cameras[id] else { continue }
            guard let decoded = camera.decoded else {
                if let first = askBeforeFirstPicture(&camera, now: now) { steps.append((id, first)) }
                cameras[id] = camera
                continue
            }
            guard now - camera.changedAt >= settle else { continue }
            if let step = camera.lastStep {
                camera.lastStep = nil
                // The last step changed nothing: the publisher has no such layer (two layers
                // give the same for medium and high; one layer, the same for all). Past the
                // last level, that way is not asked again until the tile changes.
                if step.decoded == decoded {
                    if camera.level < step.from && camera.level == .low { camera.noLower = true }
                    if camera.level > step.from && camera.level == .high { camera.noHigher = true }
                } else if let tile = camera.tile, camera.level < step.from, Self.scale(decoded, tile) > 1.1 {
                    // Layers further apart than twice (a quarter and the whole): a step down
                    // that leaves the tile short goes back and stays, down not asked again
                    // until the tile changes, so a camera never swings between two layers.
                    // (A step up that gives twice what is needed is not taken as such a pair:
                    // the picture it left may not have been its level's, as when the room
                    // forwarded a lower layer while the publisher's upper ones were starting.
                    // The step down after it settles which it was.)
                    camera.noLower = true
                    camera.lastStep = nil
                    camera.level = step.from
                    camera.changedAt = now
                    steps.append((id, step.from))
                    cameras[id] = camera
                    continue
                }
            }
            var wanted: SimulcastLevel?
            if let tile = camera.tile {
                let scale = Self.scale(decoded, tile)
                if scale <= 0.55 && camera.level > .low && !camera.noLower {
                    wanted = SimulcastLevel(rawValue: camera.level.rawValue - 1)
                } else if scale > 1.1 && camera.level < .high && !camera.noHigher {
                    wanted = SimulcastLevel(rawValue: camera.level.rawValue + 1)
                }
            } else if camera.level > .low && !camera.noLower {
                // Not on screen: decoded only to be ready, at the least it can cost.
                wanted = SimulcastLevel(rawValue: camera.level.rawValue - 1)
            }
            if let wanted {
                camera.lastStep = (camera.level, decoded)
                camera.level = wanted
                camera.changedAt = now
                steps.append((id, wanted))
            }
            cameras[id] = camera
        }
        return steps
    }

    /// Nothing of the camera is decoded yet, so nothing to watch: the ask follows the tile,
    /// freely while the room announces its cameras, then no more often than steps (a camera
    /// that never sends must not cost a keyframe request at every speaker change). `settle`
    /// after the last ask lets the first pictures decoded be the asked layer's.
    private func askBeforeFirstPicture(_ camera: inout Camera, now: Double) -> SimulcastLevel? {
        let first = Self.firstLevel(for: camera.tile)
        let firstSeenAt = camera.firstSeenAt ?? now
        camera.firstSeenAt = firstSeenAt
        guard first != camera.level, now - firstSeenAt < settle || now - camera.changedAt >= settle else { return nil }
        camera.level = first
        camera.changedAt = now
        return first
    }

    /// The first layer asked for a camera: the smallest of `assumedLayers` that fills its tile
    /// within 10%; the lowest off screen.
    static func firstLevel(for tile: (width: Int, height: Int)?) -> SimulcastLevel {
        guard let tile else { return .low }
        return assumedLayers.first { scale(($0.width, $0.height), tile) <= 1.1 }?.level ?? .high
    }

    /// How much a picture is scaled to fill its tile (ContentPlacement's fill: the larger of
    /// the two ratios): above 1 it is enlarged, at 0.5 it has twice what it needs.
    static func scale(_ picture: (width: Int, height: Int), _ tile: (width: Int, height: Int)) -> Double {
        guard picture.width > 0, picture.height > 0 else { return 1 }
        return max(Double(tile.width) / Double(picture.width), Double(tile.height) / Double(picture.height))
    }
}
