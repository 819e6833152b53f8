import Foundation
import HTTP
import Jobs

/// JSON bodies built from dictionaries, with sorted keys and ISO 8601 times.
enum JSON {
    static func response(_ status: Int, _ object: Any) -> HTTPResponse {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])) ?? Data("{}".utf8)
        return HTTPResponse(status: status, contentType: "application/json", body: Array(data))
    }

    static func error(_ error: ServiceError) -> HTTPResponse {
        response(error.status, ["statusCode": error.status, "error": error.name, "code": error.code, "message": error.message])
    }

    static func time(_ date: Date?) -> Any {
        guard let date else { return NSNull() }
        let seconds = date.timeIntervalSince1970
        var whole = time_t(seconds.rounded(.down))
        let millis = min(999, Int(((seconds - Double(whole)) * 1000).rounded()))
        var parts = tm()
        gmtime_r(&whole, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                      Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), millis)
    }

    /// The body of a request as a JSON object (an empty body is an empty object).
    static func body(_ request: HTTPRequest) throws(ServiceError) -> [String: Any] {
        if request.body.isEmpty { return [:] }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any] else {
            throw .invalidParameter("the body is not a JSON object")
        }
        return object
    }

    static func page(_ request: HTTPRequest) throws(ServiceError) -> (page: Int, perPage: Int) {
        let page = try number(request.query["page"], name: "page", default: 1, range: 1...1_000_000)
        let perPage = try number(request.query["perPage"], name: "perPage", default: 20, range: 1...100)
        return (page, perPage)
    }

    static func pageInfo(page: Int, perPage: Int, total: Int) -> [String: Any] {
        ["currentPage": page, "perPage": perPage, "lastPage": max(1, (total + perPage - 1) / perPage), "total": total]
    }

    private static func number(_ text: String?, name: String, default value: Int, range: ClosedRange<Int>) throws(ServiceError) -> Int {
        guard let text else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw .invalidParameter("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}
