import ICE
import TestKit
import Testing

@Suite struct ICECredentialsTests {
    @Test func randomCredentialsAreLongEnoughAndOfIceChars() {
        var generator = SeededGenerator(seed: 5245)
        var ufrags: Set<String> = []
        for _ in 0..<1_000 {
            let credentials = ICECredentials.random(using: &generator)
            #expect(credentials.ufrag.count == 8)
            #expect(credentials.pwd.count == 24)
            #expect(credentials.isValid)
            ufrags.insert(credentials.ufrag)
        }
        #expect(ufrags.count == 1_000)
        #expect(ICECredentials.random() != ICECredentials.random())
        #expect(ICECredentials.random().isValid)
    }

    /// RFC 8839 §5.4: ufrag 4–256 and pwd 22–256 ice-chars.
    @Test(arguments: [
        ("Rv4k", "Q9dY2mZr7Lx0PqT4nWs8vB", true),
        ("Rv4", "Q9dY2mZr7Lx0PqT4nWs8vB", false),
        ("Rv4k", "Q9dY2mZr7Lx0PqT4nWs8v", false),
        ("Rv-k", "Q9dY2mZr7Lx0PqT4nWs8vB", false),
        ("a+/b", "++++++++++++++++++++++", true),
        (String(repeating: "a", count: 257), "Q9dY2mZr7Lx0PqT4nWs8vB", false),
    ])
    func validityFollowsRFC8839(ufrag: String, pwd: String, valid: Bool) {
        #expect(ICECredentials(ufrag: ufrag, pwd: pwd).isValid == valid)
    }
}
