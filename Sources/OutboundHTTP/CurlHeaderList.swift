import CCurl

/// A `curl_slist` of request headers, freed in `deinit`. It must live until the transfer that
/// uses it has finished.
final class CurlHeaderList {
    private(set) var list: UnsafeMutablePointer<curl_slist>?

    init(_ headers: [(String, String)]) {
        for (name, value) in headers {
            // curl_slist_append copies the string; "Name:" with nothing after it removes a header
            // curl would add itself.
            list = curl_slist_append(list, value.isEmpty ? "\(name):" : "\(name): \(value)")
        }
    }

    deinit {
        curl_slist_free_all(list)
    }
}
