/// One outbound HTTP request, performed by libcurl (`CurlEasy`): object storage, webhooks,
/// summaries, REST actions forwarded to another node, the SDK's files. TLS verified against the
/// system's authorities (or `caFile`), SigV4 signing by curl (`CURLOPT_AWS_SIGV4`) when
/// `signing` is set, and deadlines. The one HTTP client Revue has.
public struct HTTPTransfer: Sendable {
    /// What is sent as the body.
    public enum Body: Sendable {
        case none
        case bytes([UInt8])
        /// `length` bytes of a file from `offset`, streamed (a large recording is never read into memory).
        case file(path: String, offset: Int64, length: Int64)

        var length: Int64 {
            switch self {
            case .none: 0
            case .bytes(let bytes): Int64(bytes.count)
            case .file(_, _, let length): length
            }
        }
    }

    /// SigV4 credentials and scope for curl to sign the request with.
    public struct Signing: Sendable {
        public var accessKeyID: String
        public var secretAccessKey: String
        public var region: String
        public var service: String

        public init(accessKeyID: String, secretAccessKey: String, region: String, service: String = "s3") {
            self.accessKeyID = accessKeyID
            self.secretAccessKey = secretAccessKey
            self.region = region
            self.service = service
        }
    }

    /// What came back.
    public struct Response: Sendable {
        public var status: Int
        /// Header fields, names lower-cased, in order.
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        public func header(_ name: String) -> String? {
            let lower = name.lowercased()
            return headers.last { $0.name == lower }?.value
        }
    }

    public var method: String
    public var url: String
    public var headers: [(String, String)]
    public var body: Body
    public var signing: Signing?
    /// Seconds to connect.
    public var connectTimeout: Double = 10
    /// Seconds the whole exchange may take (0: no limit; a slow transfer is still cut by `lowSpeedTime`).
    public var timeout: Double = 0
    /// A transfer slower than 1 KB/s for this many seconds is abandoned.
    public var lowSpeedTime: Int = 30
    public var caFile: String?
    /// The most response body kept; the rest is read and dropped (S3 answers are small XML).
    public var maxResponseBytes = 64 * 1024 * 1024

    public init(method: String, url: String, headers: [(String, String)] = [], body: Body = .none, signing: Signing? = nil,
                caFile: String? = nil)
    {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.signing = signing
        self.caFile = caFile
    }

    /// Sends the request and waits for the answer. Any HTTP status is a response; only a
    /// failure to get one throws (`HTTPTransferError`).
    public func perform(operation: String) throws(HTTPTransferError) -> Response {
        try CurlEasy().perform(self, operation: operation)
    }
}
