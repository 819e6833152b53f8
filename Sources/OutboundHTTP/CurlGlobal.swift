import CCurl

/// libcurl's one-time initialisation, done once per process before the first handle
/// (curl_global_init is not thread-safe; a Swift global's initialiser runs exactly once).
enum CurlGlobal {
    static let initialized: Bool = curl_global_init(revue_curl_global_default()) == CURLE_OK

    /// The version string (`libcurl/7.88.1 OpenSSL/3.0.x …`).
    static var version: String { String(cString: curl_version()) }
}
