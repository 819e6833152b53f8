import Foundation
import HTTP

/// The REST API's OpenAPI 3.1 document, `GET /v2/openapi.json`: docs/openapi.yaml as JSON
/// (`scripts/openapi` writes `Resources/openapi.json` from it; `OpenAPIDocumentTests` fails
/// when the two differ, or when a route and the document disagree), built into the binary.
public enum OpenAPIDocument {
    /// The document's bytes (JSON).
    public static let json: [UInt8] = EmbeddedResources.file("openapi.json") ?? Array(#"{"openapi":"3.1.0","info":{"title":"missing from this build","version":"0"},"paths":{}}"#.utf8)

    static func response() -> HTTPResponse {
        var response = HTTPResponse(status: 200, contentType: "application/json", body: json)
        response.headers.append(("Access-Control-Allow-Origin", "*"))
        return response
    }
}

/// Files of `Resources/`, built in by the EmbedFiles plugin.
enum EmbeddedResources {
    static func file(_ name: String) -> [UInt8]? {
        guard let encoded = encodedFiles.first(where: { $0.name == name })?.base64, let data = Data(base64Encoded: encoded) else { return nil }
        return Array(data)
    }
}
