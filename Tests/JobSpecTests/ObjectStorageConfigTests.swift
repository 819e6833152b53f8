import Foundation
import JobSpec
import TestKit
import Testing

/// The server's object storage, read from the variables S3 tools read.
@Suite struct ObjectStorageConfigTests {
    static let minimal = ["REVUE_S3_BUCKET": "recordings", "AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "secret"]

    @Test func noBucketMeansNoObjectStorage() throws {
        #expect(try ObjectStorageConfig.fromEnvironment(["AWS_ACCESS_KEY_ID": "AKID"]) == nil)
    }

    @Test func awsDefaultsToVirtualHostsAndACustomEndpointToPaths() throws {
        let aws = try #require(try ObjectStorageConfig.fromEnvironment(Self.minimal.merging(["AWS_REGION": "eu-west-1"]) { $1 }))
        #expect(aws.endpoint == "https://s3.eu-west-1.amazonaws.com")
        #expect(aws.addressingStyle == .virtualHost)
        #expect(aws.region == "eu-west-1")
        #expect(aws.partSize == 8 * 1024 * 1024)
        let minio = try #require(try ObjectStorageConfig.fromEnvironment(Self.minimal.merging(["AWS_ENDPOINT_URL": "http://127.0.0.1:9000/"]) { $1 }))
        #expect(minio.endpoint == "http://127.0.0.1:9000")
        #expect(minio.addressingStyle == .path)
        #expect(minio.region == "us-east-1")
        // AWS_ENDPOINT_URL_S3 wins over AWS_ENDPOINT_URL, and the style can be forced.
        let both = try #require(try ObjectStorageConfig.fromEnvironment(Self.minimal.merging(
            ["AWS_ENDPOINT_URL": "http://a:1", "AWS_ENDPOINT_URL_S3": "http://b:2", "REVUE_S3_ADDRESSING_STYLE": "virtual",
             "REVUE_S3_PART_SIZE": "6291456", "REVUE_S3_URL_EXPIRES": "600", "REVUE_S3_PUBLIC_URL": "https://cdn.example/r/"]) { $1 }))
        #expect(both.endpoint == "http://b:2" && both.addressingStyle == .virtualHost && both.partSize == 6_291_456 && both.urlExpiry == 600)
        #expect(both.publicURL == "https://cdn.example/r")
    }

    @Test func credentialsCanComeFromTheSharedCredentialsFile() throws {
        let file = """
            # written by aws configure
            [default]
            aws_access_key_id = AKIDDEFAULT
            aws_secret_access_key = default-secret
            [profile rec]
            aws_access_key_id=AKIDREC
            aws_secret_access_key=rec/secret=
            aws_session_token = token
            """
        let environment = ["REVUE_S3_BUCKET": "b", "AWS_SHARED_CREDENTIALS_FILE": "/creds", "AWS_PROFILE": "rec"]
        let config = try #require(try ObjectStorageConfig.fromEnvironment(environment, readFile: { $0 == "/creds" ? file : nil }))
        #expect(config.accessKeyID == "AKIDREC" && config.secretAccessKey == "rec/secret=" && config.sessionToken == "token")
        #expect(config.redacted.secretAccessKey == "***" && config.redacted.sessionToken == "***")
        #expect(!config.description.contains("rec/secret"))
        let fallback = try #require(try ObjectStorageConfig.fromEnvironment(["REVUE_S3_BUCKET": "b", "HOME": "/home/r"],
                                                                              readFile: { $0 == "/home/r/.aws/credentials" ? file : nil }))
        #expect(fallback.accessKeyID == "AKIDDEFAULT")
    }

    @Test(arguments: [
        (["REVUE_S3_BUCKET": "b"], "there are no credentials"),
        (minimal.merging(["REVUE_S3_BUCKET": "a/b"]) { $1 }, "REVUE_S3_BUCKET must be a bucket name"),
        (minimal.merging(["AWS_ENDPOINT_URL_S3": "ftp://x"]) { $1 }, "the S3 endpoint must be http(s)"),
        (minimal.merging(["AWS_ENDPOINT_URL_S3": "http://x/path"]) { $1 }, "with no path"),
        (minimal.merging(["REVUE_S3_ADDRESSING_STYLE": "dns"]) { $1 }, "REVUE_S3_ADDRESSING_STYLE must be path or virtual"),
        (minimal.merging(["REVUE_S3_PART_SIZE": "1000"]) { $1 }, "REVUE_S3_PART_SIZE must be"),
        (minimal.merging(["REVUE_S3_URL_EXPIRES": "604801"]) { $1 }, "REVUE_S3_URL_EXPIRES must be"),
    ])
    func misconfigurationsSayWhatIsWrong(environment: [String: String], message: String) {
        let error = #expect(throws: SpecError.self) { try ObjectStorageConfig.fromEnvironment(environment, readFile: { _ in nil }) }
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    }

    /// The credentials file parser on 100,000 random and mutated files: no crash.
    @Test func randomCredentialsFilesNeverCrash() {
        var generator = SeededGenerator(seed: 0xC4ED)
        let seed = Array("[default]\naws_access_key_id = A\n; c\n[profile x]\r\naws_secret_access_key=B=C\n[]\n=\n".utf8)
        var sections = 0
        for index in 0..<100_000 {
            let bytes = index % 3 == 0 ? generator.bytes(Int(generator.next() % 120)) : generator.mutate(seed)
            sections += AWSCredentialsFile.parse(String(decoding: bytes, as: UTF8.self)).count
        }
        #expect(sections > 50_000)
    }

    /// A worker hands the storage to its job's process in the spec file; the copy in events is redacted.
    @Test func theSpecCarriesTheMirrorAndItsRedactedCopyHidesTheSecret() throws {
        let storage = try #require(try ObjectStorageConfig.fromEnvironment(Self.minimal))
        let spec = PipelineSpec(source: .fixture(FixtureSourceSpec(directory: "/f", passes: nil, realtime: true)), config: RecordingConfig(),
                                outputs: [], bucketMirror: BucketMirrorSpec(storage: storage, prefix: "live/part-1"))
        let decoded = try JSONDecoder().decode(PipelineSpec.self, from: try JSONEncoder().encode(spec))
        #expect(decoded == spec)
        #expect(spec.redacted.bucketMirror?.storage.secretAccessKey == "***")
        #expect(!String(decoding: try JSONEncoder().encode(spec.redacted), as: UTF8.self).contains("\"secret\""))
    }
}
