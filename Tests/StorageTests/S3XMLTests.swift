import Storage
import TestSupport
import Testing

/// The few fields read from S3's XML answers, on answers as rclone 1.75 and AWS write them.
@Suite struct S3XMLTests {
    @Test func readsAnswersAsServersWriteThem() {
        // rclone 1.75's CompleteMultipartUpload answer (witnessed): the quotes as &#34;.
        let complete = Array("""
            <?xml version="1.0" encoding="UTF-8"?>
            <CompleteMultipartUploadResult><Location></Location><Bucket>bucket</Bucket><Key>m/big3.bin</Key>
            <ETag>&#34;b632a5578f25e5f3f75b108343c20705-2&#34;</ETag></CompleteMultipartUploadResult>
            """.utf8)
        #expect(S3XML.firstText(of: "ETag", in: complete) == "\"b632a5578f25e5f3f75b108343c20705-2\"")
        #expect(S3XML.firstText(of: "Location", in: complete) == "")
        let error = Array("<Error><Code>SignatureDoesNotMatch</Code><Message>a &lt;b&gt; &amp; &#x22;c&quot;</Message></Error>".utf8)
        #expect(S3XML.firstText(of: "Code", in: error) == "SignatureDoesNotMatch")
        #expect(S3XML.firstText(of: "Message", in: error) == "a <b> & \"c\"")
        #expect(S3XML.firstText(of: "UploadId", in: error) == nil)
        #expect(S3XML.decodeEntities("&bogus; &#99999999999; & end") == "&bogus; &#99999999999; & end")
        #expect(S3XML.escape("<a & \"b\">") == "&lt;a &amp; &quot;b&quot;&gt;")
    }

    /// 100,000 random and mutated answers: no crash, and what is found is always a string.
    @Test func randomAndMutatedAnswersNeverCrash() {
        var generator = SeededGenerator(seed: 0x53_33_58_4D)
        let seeds = [
            Array("<InitiateMultipartUploadResult><Bucket>b</Bucket><Key>k</Key><UploadId>9d38e22b-caac</UploadId></InitiateMultipartUploadResult>".utf8),
            Array("<Error><Code>NoSuchUpload</Code><Message>The specified upload &amp; does not exist</Message></Error>".utf8),
            Array("<ETag>&#34;abc&#34;</ETag>&#x1F600;&#xD800;&#;&#x;".utf8),
        ]
        var found = 0
        for index in 0..<100_000 {
            let input = index % 4 == 0 ? generator.bytes(Int(generator.next() % 200)) : generator.mutate(seeds[index % seeds.count])
            for name in ["UploadId", "Code", "Message", "ETag"] where S3XML.firstText(of: name, in: input) != nil { found += 1 }
        }
        #expect(found > 10_000)
    }
}
