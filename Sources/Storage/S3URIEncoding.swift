/// The URI encoding SigV4 signs (AWS "UriEncode"): every byte but the unreserved
/// `A-Z a-z 0-9 - _ . ~` is `%XX` with upper-case hex; in an object key `/` stays as it is.
/// Signer and sender must encode identically, so both use this.
public enum S3URIEncoding {
    public static func encode(_ text: String, keepSlash: Bool = false) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "/") where keepSlash:
                out.append("/")
            default:
                let digits = Array("0123456789ABCDEF")
                out.append("%")
                out.append(digits[Int(byte >> 4)])
                out.append(digits[Int(byte & 0x0F)])
            }
        }
        return out
    }

    /// A canonical query string: names and values encoded, sorted by name, and a name without a
    /// value written `name=` (SigV4 requires it; curl 7.88 signs the query exactly as given, so
    /// it must already be canonical: `?uploads` would fail with SignatureDoesNotMatch).
    public static func query(_ parameters: [(String, String)]) -> String {
        parameters.map { (encode($0.0), encode($0.1)) }.sorted { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }
            .map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }
}
