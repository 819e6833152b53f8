/// A route: a method and a path template whose `{name}` segments match any one non-empty
/// segment (`/v2/recordings/{recordingId}`), the same spelling as OpenAPI's paths, so a server's
/// table of routes can be held against its document (docs/openapi.yaml).
public struct HTTPRoute: Sendable, Hashable, CustomStringConvertible {
    public let method: String
    public let template: String
    private let segments: [Segment]

    private enum Segment: Sendable, Hashable {
        case literal(String)
        case parameter(String)
    }

    public init(_ method: String, _ template: String) {
        self.method = method
        self.template = template
        segments = template.split(separator: "/").map { part in
            part.hasPrefix("{") && part.hasSuffix("}") ? .parameter(String(part.dropFirst().dropLast())) : .literal(String(part))
        }
    }

    public var description: String { "\(method) \(template)" }

    /// The parameters when `path` (percent-decoded, as `HTTPRequest.path`) fits the template,
    /// whatever the method; nil otherwise.
    public func match(path: String) -> [String: String]? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (part, segment) in zip(parts, segments) {
            switch segment {
            case .literal(let text): guard part == text else { return nil }
            case .parameter(let name): parameters[name] = String(part)
            }
        }
        return parameters
    }

    /// How many literal segments it has: among templates that fit a path, the most literal one
    /// wins (`/v2/rooms/deactivate` over `/v2/rooms/{roomId}`).
    public var specificity: Int {
        segments.reduce(0) { count, segment in
            if case .literal = segment { return count + 1 }
            return count
        }
    }
}

/// A table of routes and what serves each: it picks the route a request takes, or says why
/// none does (404 for a path no route has, 405 with `Allow` for a method it does not take).
public struct HTTPRouter<Handler: Sendable>: Sendable {
    public let entries: [(route: HTTPRoute, handler: Handler)]

    public init(_ entries: [(HTTPRoute, Handler)]) {
        self.entries = entries.map { (route: $0.0, handler: $0.1) }
    }

    public var routes: [HTTPRoute] { entries.map(\.route) }

    public enum Match {
        case found(Handler, parameters: [String: String])
        /// The path is a route's, the method is not: the methods it takes.
        case methodNotAllowed(allowed: [String])
        case notFound
    }

    public func match(_ request: HTTPRequest) -> Match {
        var best: (handler: Handler, parameters: [String: String], specificity: Int)?
        var allowed: Set<String> = []
        var bestAllowedSpecificity = -1
        for entry in entries {
            guard let parameters = entry.route.match(path: request.path) else { continue }
            let specificity = entry.route.specificity
            if entry.route.method == request.method {
                if specificity > (best?.specificity ?? -1) { best = (entry.handler, parameters, specificity) }
            } else if specificity >= bestAllowedSpecificity {
                if specificity > bestAllowedSpecificity { allowed = [] }
                bestAllowedSpecificity = specificity
                allowed.insert(entry.route.method)
            }
        }
        if let best, best.specificity >= bestAllowedSpecificity { return .found(best.handler, parameters: best.parameters) }
        if !allowed.isEmpty { return .methodNotAllowed(allowed: allowed.sorted()) }
        if let best { return .found(best.handler, parameters: best.parameters) }
        return .notFound
    }
}
