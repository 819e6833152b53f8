import Foundation
import HTTP
import JobSpec
import OutboundHTTP

/// The Room seed's temporary file storage, against the room server's `/v2/files`
/// (docs/ROOMS.md "Files"): a file is kept for a day, for the room it was uploaded in, and is at
/// most 1 MiB.
extension Room {
    /// Uploads a file for the others in the room; the URL to fetch it from.
    /// - Throws: 3073 for an empty argument (not sent to `onError`), 3065, 3035, and 3074 when
    ///   the upload fails: data that is not Base64, a name with `/` or a control character, over
    ///   1 MiB, a token the server refuses (its message says which). All but 3073 also go to
    ///   `onError`.
    public func uploadBase64File(base64Data: String, token: String, fileName: String) async throws(VideoSDKError) -> String {
        guard !base64Data.isEmpty, !token.isEmpty, !fileName.isEmpty else {
            throw VideoSDKError.ERROR_INVALID_PARAMETER.with("base64Data, token and fileName must not be empty")
        }
        try reported { () throws(VideoSDKError) in try checkJoined() }
        guard let bytes = Data(base64Encoded: base64Data, options: .ignoreUnknownCharacters), !bytes.isEmpty else {
            throw reported(VideoSDKError.ERROR_FILE_UPLOAD_FAILED.with("base64Data is not Base64"))
        }
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+")
        let url = roomServerURL("/v2/files/\(id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? id)?name=")
            + (fileName.addingPercentEncoding(withAllowedCharacters: allowed) ?? fileName)
        let response: HTTPClient.Response
        do {
            response = try await Room.offMain { try HTTPClient.request("POST", url, body: Array(bytes), headers: [("Authorization", token)], timeout: 30) }
        } catch {
            throw reported(VideoSDKError.ERROR_FILE_UPLOAD_FAILED.with("the room server did not answer: \(error)"))
        }
        guard response.status == 201, let reply = try? JSONValue(parsing: response.body), case .string(let location)? = reply["url"] else {
            throw reported(VideoSDKError.ERROR_FILE_UPLOAD_FAILED.with(Room.serverMessage(response)))
        }
        return location
    }

    /// Fetches a file `uploadBase64File` stored; its content in Base64.
    /// - Throws: 3073 for an empty argument (not sent to `onError`), 3065, 3035, and 3075 when
    ///   the file cannot be fetched (expired after a day, never uploaded, a token the server
    ///   refuses), also to `onError`.
    public func fetchBase64File(url: String, token: String) async throws(VideoSDKError) -> String {
        guard !url.isEmpty, !token.isEmpty else { throw VideoSDKError.ERROR_INVALID_PARAMETER.with("url and token must not be empty") }
        try reported { () throws(VideoSDKError) in try checkJoined() }
        let response: HTTPClient.Response
        do {
            response = try await Room.offMain { try HTTPClient.request("GET", url, headers: [("Authorization", token)], timeout: 30) }
        } catch {
            throw reported(VideoSDKError.ERROR_FILE_FETCH_FAILED.with("\(url) did not answer: \(error)"))
        }
        guard response.status == 200 else { throw reported(VideoSDKError.ERROR_FILE_FETCH_FAILED.with(Room.serverMessage(response))) }
        return Data(response.body).base64EncodedString()
    }

    /// The server's `message` from an error reply, or its status.
    private nonisolated static func serverMessage(_ response: HTTPClient.Response) -> String {
        if let reply = try? JSONValue(parsing: response.body), case .string(let message)? = reply["message"] {
            return "the room server refused it (\(response.status)): \(message)"
        }
        return "the room server answered \(response.status)"
    }

    private func reported(_ body: () throws(VideoSDKError) -> Void) throws(VideoSDKError) {
        do { try body() } catch { throw reported(error) }
    }
}
