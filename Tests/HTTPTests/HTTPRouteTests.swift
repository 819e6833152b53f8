import HTTP
import Testing

/// Route templates as OpenAPI writes them, and a table that picks the most literal fit, or
/// says 404 or 405.
@Suite struct HTTPRouteTests {
    static let router = HTTPRouter<String>([
        (HTTPRoute("GET", "/v2/rooms"), "list"), (HTTPRoute("POST", "/v2/rooms"), "create"),
        (HTTPRoute("GET", "/v2/rooms/{roomId}"), "get"), (HTTPRoute("POST", "/v2/rooms/{roomId}"), "status"),
        (HTTPRoute("POST", "/v2/rooms/deactivate"), "deactivate"), (HTTPRoute("GET", "/v2/rooms/validate/{roomId}"), "validate"),
    ])

    static func outcome(_ method: String, _ target: String) -> String {
        switch router.match(HTTPRequest(method: method, target: target)) {
        case .found(let name, let parameters): "\(name) \(parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","))"
        case .methodNotAllowed(let allowed): "405 \(allowed.joined(separator: ","))"
        case .notFound: "404"
        }
    }

    @Test(arguments: [
        ("GET", "/v2/rooms", "list "), ("POST", "/v2/rooms/", "create "), ("GET", "/v2/rooms/abc", "get roomId=abc"),
        ("GET", "/v2/rooms/a%20b?x=1", "get roomId=a b"), ("POST", "/v2/rooms/deactivate", "deactivate "),
        ("POST", "/v2/rooms/other", "status roomId=other"), ("GET", "/v2/rooms/validate/x", "validate roomId=x"),
        ("GET", "/v2/rooms/deactivate", "405 POST"), ("DELETE", "/v2/rooms", "405 GET,POST"), ("PUT", "/v2/rooms/abc", "405 GET,POST"),
        ("GET", "/v2/rooms/a/b/c", "404"), ("GET", "/v2", "404"), ("GET", "/", "404"),
    ])
    func eachRequestFindsItsRoute(_ method: String, _ target: String, _ expected: String) {
        #expect(Self.outcome(method, target) == expected, "\(method) \(target)")
    }

    @Test func templatesMatchWholeSegments() {
        let route = HTTPRoute("GET", "/files/s/{expires}/{signature}/recordings/{jobId}/{fileName}")
        #expect(route.match(path: "/files/s/1/abc/recordings/j/part-1.mp4") == ["expires": "1", "signature": "abc", "jobId": "j", "fileName": "part-1.mp4"])
        #expect(route.match(path: "/files/s/1/abc/hls/j/part-1.mp4") == nil)
        #expect(route.match(path: "/files/s/1/abc/recordings/j") == nil)
        #expect(route.specificity == 3 && route.description == "GET /files/s/{expires}/{signature}/recordings/{jobId}/{fileName}")
    }
}
