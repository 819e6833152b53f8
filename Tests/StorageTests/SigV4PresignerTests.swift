import Foundation
import JobSpec
import Storage
import Testing

/// Presigned URLs, checked against AWS's own published example and against a real server
/// (S3ClientTests).
@Suite struct SigV4PresignerTests {
    /// The example of "Authenticating Requests: Using Query Parameters (AWS Signature Version 4)",
    /// https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html: a GET of
    /// examplebucket/test.txt on 24 May 2013, valid 86400 s, with the documented example keys.
    @Test func theAWSDocumentationExample() {
        let presigner = SigV4Presigner(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                                       region: "us-east-1")
        let url = presigner.presign(method: "GET", scheme: "https", host: "examplebucket.s3.amazonaws.com", path: "/test.txt", expires: 86_400,
                                    now: Date(timeIntervalSince1970: 1_369_353_600))
        #expect(url == "https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256"
            + "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z"
            + "&X-Amz-Expires=86400&X-Amz-SignedHeaders=host"
            + "&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404")
    }

    @Test func theClientSignsForItsAddressingStyle() {
        let config = ObjectStorageConfig(endpoint: "https://s3.amazonaws.com", region: "us-east-1", bucket: "examplebucket",
                                         addressingStyle: .virtualHost, accessKeyID: "AKIAIOSFODNN7EXAMPLE",
                                         secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
        let url = S3Client(config: config).presignedURL(method: "GET", key: "test.txt", expires: 86_400, now: Date(timeIntervalSince1970: 1_369_353_600))
        #expect(url.hasSuffix("X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404"))
        var path = config
        path.addressingStyle = .path
        path.endpoint = "http://127.0.0.1:9000"
        let pathURL = S3Client(config: path).presignedURL(method: "PUT", key: "a b/c.mp4", expires: 60, now: Date(timeIntervalSince1970: 0))
        #expect(pathURL.hasPrefix("http://127.0.0.1:9000/examplebucket/a%20b/c.mp4?X-Amz-Algorithm=AWS4-HMAC-SHA256&"))
        #expect(pathURL.contains("X-Amz-Date=19700101T000000Z&X-Amz-Expires=60&"))
    }

    @Test func keysAndQueriesAreEncodedTheWaySigV4SignsThem() {
        #expect(S3URIEncoding.encode("rec/2026 11/ä~x.mp4", keepSlash: true) == "rec/2026%2011/%C3%A4~x.mp4")
        #expect(S3URIEncoding.encode("a/b+c=d") == "a%2Fb%2Bc%3Dd")
        // Sorted by name, and a name without a value still has its '='.
        #expect(S3URIEncoding.query([("uploadId", "x/y"), ("partNumber", "2")]) == "partNumber=2&uploadId=x%2Fy")
        #expect(S3URIEncoding.query([("uploads", "")]) == "uploads=")
    }
}
