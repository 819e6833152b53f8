import JobSpec

/// Turns participants and a configuration into tiles. A pure function: the same input gives
/// the same layout, so it is tested without pixels. docs/LAYOUT.md states the rules.
///
/// - GRID: the first `gridSize` participants in priority order, in a grid. While someone shares
///   a screen, the share takes the main area and the cameras move to a strip.
/// - SIDEBAR: a main tile (the screen share, else the first pinned with PIN, else the active
///   speaker) and a strip beside it (right in landscape, below in portrait) with the rest, up to
///   `gridSize`.
/// - SPOTLIGHT: only the main subject: the share, else the pinned participants (PIN), else the
///   active speaker.
///
/// Priority SPEAKER orders by most recent speaking; PIN puts pinned participants first, then
/// orders by speaking. Participants who never spoke come in the order they joined.
public enum LayoutEngine {
    public static func layout(participants: [LayoutParticipant], activeSpeaker: String?,
                              configuration: LayoutConfiguration, previous: Layout? = nil) -> Layout
    {
        let canvas = configuration.canvas
        guard !participants.isEmpty else { return .empty(canvas) }
        let ordered = order(participants, priority: configuration.priority)
        let pinned = ordered.filter { $0.pinnedAt != nil }
        // The most recent sharer (in priority order) is the one shown.
        let sharer = ordered.first { $0.isSharingScreen }
        let speaker = activeSpeaker.flatMap { id in ordered.first { $0.id == id } }
        let gap = configuration.gap
        let area = Rect(x: gap, y: gap, width: canvas.width - 2 * gap, height: canvas.height - 2 * gap)

        func cameraTile(_ participant: LayoutParticipant, role: Tile.Role, rect: Rect) -> Tile {
            Tile(participantID: participant.id, name: participant.name, content: participant.hasCamera ? .camera : .cameraOff,
                 role: role, rect: rect.evenAligned, isActiveSpeaker: participant.id == activeSpeaker)
        }

        switch configuration.type {
        case .grid:
            if let sharer {
                let strip = Array(ordered.prefix(configuration.gridSize))
                return mainAndStrip(main: .share(sharer), strip: strip, area: area, configuration: configuration,
                                    previous: previous, cameraTile: cameraTile)
            }
            let visible = stableOrder(Array(ordered.prefix(configuration.gridSize)), previous: previous?.slotOrder)
            let cells = grid(count: visible.count, in: area, gap: gap)
            let tiles = zip(visible, cells).map { cameraTile($0, role: .grid, rect: $1) }
            return Layout(tiles: tiles, slotOrder: visible.map(\.id), canvas: canvas)

        case .sidebar:
            let main: MainSubject
            if let sharer {
                main = .share(sharer)
            } else if configuration.priority == .pin, let first = pinned.first {
                main = .camera(first)
            } else {
                main = .camera(speaker ?? ordered[0])
            }
            var rest = ordered
            if case .camera(let person) = main { rest.removeAll { $0.id == person.id } }
            return mainAndStrip(main: main, strip: Array(rest.prefix(configuration.gridSize)), area: area,
                                configuration: configuration, previous: previous, cameraTile: cameraTile)

        case .spotlight:
            if let sharer {
                return mainAndStrip(main: .share(sharer), strip: [], area: area, configuration: configuration,
                                    previous: previous, cameraTile: cameraTile)
            }
            let subjects: [LayoutParticipant]
            if configuration.priority == .pin, !pinned.isEmpty {
                subjects = stableOrder(Array(pinned.prefix(configuration.gridSize)), previous: previous?.slotOrder)
            } else {
                subjects = [speaker ?? ordered[0]]
            }
            if subjects.count == 1 {
                return Layout(tiles: [cameraTile(subjects[0], role: .main, rect: area)], slotOrder: [], canvas: canvas)
            }
            let cells = grid(count: subjects.count, in: area, gap: gap)
            return Layout(tiles: zip(subjects, cells).map { cameraTile($0, role: .main, rect: $1) },
                          slotOrder: subjects.map(\.id), canvas: canvas)
        }
    }

    enum MainSubject {
        case camera(LayoutParticipant)
        case share(LayoutParticipant)
    }

    /// A main tile and a strip: right of it in landscape, below it in portrait.
    static func mainAndStrip(main: MainSubject, strip: [LayoutParticipant], area: Rect, configuration: LayoutConfiguration,
                             previous: Layout?, cameraTile: (LayoutParticipant, Tile.Role, Rect) -> Tile) -> Layout
    {
        let gap = configuration.gap
        let stripMembers = stableOrder(strip, previous: previous?.slotOrder)
        var mainRect = area
        var stripRect: Rect?
        if !stripMembers.isEmpty {
            if configuration.orientation == .landscape {
                let stripWidth = (area.width / 4) & ~1
                mainRect.width = area.width - stripWidth - gap
                stripRect = Rect(x: mainRect.maxX + gap, y: area.y, width: stripWidth, height: area.height)
            } else {
                let stripHeight = (area.height * 3 / 10) & ~1
                mainRect.height = area.height - stripHeight - gap
                stripRect = Rect(x: area.x, y: mainRect.maxY + gap, width: area.width, height: stripHeight)
            }
        }
        var tiles: [Tile] = []
        switch main {
        case .camera(let person):
            tiles.append(cameraTile(person, .main, mainRect))
        case .share(let person):
            tiles.append(Tile(participantID: person.id, name: person.name, content: .screenShare, role: .main,
                              rect: mainRect.evenAligned, isActiveSpeaker: false))
        }
        if let stripRect {
            let cells = grid(count: stripMembers.count, in: stripRect, gap: gap)
            tiles += zip(stripMembers, cells).map { cameraTile($0, .grid, $1) }
        }
        return Layout(tiles: tiles, slotOrder: stripMembers.map(\.id), canvas: configuration.canvas)
    }

    /// Priority order: SPEAKER by most recent speaking; PIN pinned first (earliest pin first),
    /// then by speaking; then by joining time and id, so the order is total.
    static func order(_ participants: [LayoutParticipant], priority: LayoutPriority) -> [LayoutParticipant] {
        participants.sorted { a, b in
            if priority == .pin {
                switch (a.pinnedAt, b.pinnedAt) {
                case (let x?, let y?) where x != y: return x < y
                case (.some, nil): return true
                case (nil, .some): return false
                default: break
                }
            }
            switch (a.lastSpokeAt, b.lastSpokeAt) {
            case (let x?, let y?) where x != y: return x > y
            case (.some, nil): return true
            case (nil, .some): return false
            default: break
            }
            if a.joinedAt != b.joinedAt { return a.joinedAt < b.joinedAt }
            return a.id < b.id
        }
    }

    /// Keeps participants who were visible before in the slots they had. A newcomer takes the
    /// slot of someone who left the visible set; any further newcomers go at the end. So a
    /// change of speaking order inside the visible set moves nobody.
    static func stableOrder(_ visible: [LayoutParticipant], previous: [String]?) -> [LayoutParticipant] {
        guard let previous, !previous.isEmpty else { return visible }
        let byID = Dictionary(visible.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var newcomers = visible.filter { !previous.contains($0.id) }
        var slots: [LayoutParticipant] = []
        var vacated = 0
        for id in previous {
            if let kept = byID[id] {
                slots.append(kept)
            } else if !newcomers.isEmpty {
                slots.append(newcomers.removeFirst())
            } else {
                vacated += 1
            }
        }
        return slots + newcomers
    }

    /// Cells for `count` tiles in `area`: the column count that shows the most of 16:9 cameras
    /// (after the crop rule of ContentPlacement), ties broken towards wider grids in landscape
    /// and taller ones in portrait. An incomplete last row is centred.
    public static func grid(count: Int, in area: Rect, gap: Int) -> [Rect] {
        guard count > 0, area.width > 0, area.height > 0 else { return [] }
        let camera = Size(width: 1280, height: 720)
        var best: (columns: Int, shown: Int)?
        for columns in 1...count {
            let rows = (count + columns - 1) / columns
            let cellWidth = (area.width - (columns - 1) * gap) / columns
            let cellHeight = (area.height - (rows - 1) * gap) / rows
            guard cellWidth >= 2, cellHeight >= 2 else { continue }
            let cell = Rect(x: 0, y: 0, width: cellWidth, height: cellHeight)
            let shown = ContentPlacement.place(source: camera, in: cell, mode: .fill).destination.area * count
            let better: Bool
            if let current = best {
                if shown != current.shown {
                    better = shown > current.shown
                } else {
                    better = area.width >= area.height ? columns > current.columns : columns < current.columns
                }
            } else {
                better = true
            }
            if better { best = (columns, shown) }
        }
        let columns = best?.columns ?? 1
        let rows = (count + columns - 1) / columns
        let cellWidth = (area.width - (columns - 1) * gap) / columns
        let cellHeight = (area.height - (rows - 1) * gap) / rows
        var cells: [Rect] = []
        for index in 0..<count {
            let row = index / columns
            let column = index % columns
            let inRow = row == rows - 1 ? count - row * columns : columns
            let rowWidth = inRow * cellWidth + (inRow - 1) * gap
            let left = area.x + (area.width - rowWidth) / 2
            cells.append(Rect(x: left + column * (cellWidth + gap), y: area.y + row * (cellHeight + gap),
                              width: cellWidth, height: cellHeight).evenAligned)
        }
        return cells
    }
}
