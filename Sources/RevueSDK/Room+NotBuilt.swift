import Foundation

/// The Room seed's calls that need parts Revue has not built yet. Each checks what the seed says
/// it checks first (the join, empty parameters) and then fails with 3068
/// ERROR_ACTION_NOT_SUPPORTED saying what is missing; none reports success. docs/SDK.md lists them.
extension Room {
    private func notBuilt(_ what: String) -> VideoSDKError {
        VideoSDKError.ERROR_ACTION_NOT_SUPPORTED.with("\(what) is not built in Revue yet (issue 22)")
    }

    public func startTranslation(config: [String: any Sendable]? = nil) async throws(VideoSDKError) {
        try checkJoined()
        throw notBuilt("realtime translation (it needs a translation engine; transcription is built)")
    }

    public func stopTranslation() async throws(VideoSDKError) {
        try checkJoined()
        throw notBuilt("realtime translation (it needs a translation engine; transcription is built)")
    }

    public func changeTranslationLanguage(_ language: String) async throws(VideoSDKError) {
        try checkJoined()
        throw notBuilt("realtime translation (it needs a translation engine; transcription is built)")
    }
}
