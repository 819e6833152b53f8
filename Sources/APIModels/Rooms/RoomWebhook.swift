import JobSpec
/// A room's `webhook`: where its events go, and which (all of them when `events` is empty).
public struct RoomWebhook: Sendable, Codable, Equatable {
    public var endPoint: String
    public var events: [String]

    public init(endPoint: String, events: [String] = []) {
        self.endPoint = endPoint
        self.events = events
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        endPoint = try container.decode(String.self, forKey: .endPoint)
        events = try container.decodeIfPresent([String].self, forKey: .events) ?? []
    }

    /// Whether this endpoint asked for `event`.
    public func wants(_ event: String) -> Bool { events.isEmpty || events.contains(event) }

    static func validated(_ value: JSONValue) throws(SpecError) -> RoomWebhook {
        guard value.objectValue != nil else { throw SpecError("webhook must be an object {endPoint, events}") }
        guard let endPoint = value["endPoint"]?.stringValue, let scheme = endPoint.split(separator: ":").first?.lowercased(),
              scheme == "http" || scheme == "https"
        else { throw SpecError("webhook.endPoint must be an http(s) URL") }
        var events: [String] = []
        if let list = value["events"], !list.isNull {
            guard let items = list.arrayValue else { throw SpecError("webhook.events must be a list of event names") }
            for (index, item) in items.enumerated() {
                guard let name = item.stringValue else { throw SpecError("webhook.events[\(index)] must be a string") }
                events.append(name)
            }
        }
        return RoomWebhook(endPoint: endPoint, events: events)
    }
}
