import APIModels
import Foundation
import HTTP
import JobSpec
import Jobs

/// JSON answers and bodies: every answer is a typed view encoded once (`APIJSON`), every body
/// a `JSONValue` that a request model validates.
enum JSON {
    static func response(_ status: Int, _ value: some Encodable) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: APIJSON.encode(value))
    }

    static func error(_ error: ServiceError) -> HTTPResponse {
        response(error.status, ErrorBody(statusCode: error.status, error: error.name, code: error.code, message: error.message))
    }

    /// The body of a request as JSON (an empty body is an empty object).
    static func body(_ request: HTTPRequest) throws(ServiceError) -> JSONValue {
        if request.body.isEmpty { return .object([:]) }
        do {
            let value = try JSONValue(parsing: request.body)
            guard value.objectValue != nil else { throw ServiceError.invalidParameter("the body is not a JSON object") }
            return value
        } catch let error as ServiceError {
            throw error
        } catch let error as SpecError {
            throw .invalidParameter(error.message)
        } catch {
            throw .invalidParameter("the body is not a JSON object")
        }
    }

    static func page(_ request: HTTPRequest) throws(ServiceError) -> (page: Int, perPage: Int) {
        let page = try number(request.query["page"], name: "page", default: 1, range: 1...1_000_000)
        let perPage = try number(request.query["perPage"], name: "perPage", default: 20, range: 1...100)
        return (page, perPage)
    }

    private static func number(_ text: String?, name: String, default value: Int, range: ClosedRange<Int>) throws(ServiceError) -> Int {
        guard let text else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw .invalidParameter("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}

extension ServiceError {
    /// A request that does not fit the job spec, answered with its family's code.
    static func spec(_ error: SpecError, kind: JobKind) -> ServiceError {
        switch error.category {
        case .invalidRequest: .startFailed(kind, error.message)
        case .livestreamConfig: .invalidLivestreamConfig(error.message)
        case .roomID: ServiceError(status: 404, code: 4003, name: "INVALID_ROOM_ID", message: error.message)
        }
    }
}
