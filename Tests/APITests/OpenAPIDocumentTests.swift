import API
import Foundation
import HTTP
import JobSpec
import Platform
import RoomServer
import TestSupport
import Testing

/// docs/openapi.yaml is the HTTP API's contract: it is valid OpenAPI 3.1, the JSON the server
/// serves is the YAML (scripts/openapi), and its operations are exactly the routes the REST API
/// and the room server take, no more and no fewer.
@Suite struct OpenAPIDocumentTests {
    static let yamlPath = TestFixtures.repositoryRoot + "/docs/openapi.yaml"

    static func document() throws -> JSONValue {
        try JSONValue(parsing: OpenAPIDocument.json, limits: .init(maxDepth: 64, maxValues: 1_000_000))
    }

    /// The operations the document lists, as routes.
    static func documentedRoutes() throws -> Set<HTTPRoute> {
        let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
        var routes: Set<HTTPRoute> = []
        for (path, item) in try document()["paths"]?.objectValue ?? [:] {
            for method in methods where item[method] != nil { routes.insert(HTTPRoute(method.uppercased(), path)) }
        }
        return routes
    }

    @Test func everyRouteIsDocumentedAndEveryOperationIsARoute() throws {
        let served = Set(APIService.routes + RoomServer.routes)
        let documented = try Self.documentedRoutes()
        let undocumented = served.subtracting(documented).map(\.description).sorted()
        let unserved = documented.subtracting(served).map(\.description).sorted()
        print("measured: \(served.count) routes served, \(documented.count) operations documented")
        #expect(undocumented.isEmpty, "routes docs/openapi.yaml does not list: \(undocumented)")
        #expect(unserved.isEmpty, "operations in docs/openapi.yaml no route serves: \(unserved)")
    }

    /// The served JSON is the YAML as it is now (run scripts/openapi after editing it).
    @Test func theServedDocumentIsTheYAML() throws {
        let converted = try Subprocess.run("/usr/bin/python3", ["-c", "import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)",
                                                               Self.yamlPath])
        #expect(converted.succeeded, "\(converted.standardError)")
        let fromYAML = try JSONValue(parsing: Array(converted.standardOutput.utf8))
        #expect(fromYAML == (try Self.document()), "Sources/API/Resources/openapi.json is stale: run scripts/openapi")
        #expect(fromYAML["openapi"]?.stringValue == "3.1.0")
    }

    /// openapi-spec-validator (PyPI), as a user of the document would check it.
    @Test func theDocumentIsValidOpenAPI() throws {
        let validated = try Subprocess.run(try TestPeers.python(), ["-m", "openapi_spec_validator", Self.yamlPath])
        print("measured: openapi-spec-validator: \(validated.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))")
        #expect(validated.succeeded, "\(validated.standardOutput) \(validated.standardError)")
    }
}
