import JobSpec
import Testing

/// What participants may name as a job's destination (issue 29, finding 8).
@Suite struct DestinationAllowListTests {
    static let list: DestinationAllowList = {
        (try? DestinationAllowList(["rtmp://live.example.com/app", "https://hooks.example.com/revue/", "http://127.0.0.1:*"])) ?? .none
    }()

    @Test(arguments: [
        ("rtmp://live.example.com/app/key", true), ("rtmp://live.example.com/app", true), ("RTMP://LIVE.example.com/app/x", true),
        ("rtmp://live.example.com:1935/app/x", true), ("rtmp://live.example.com:1936/app/x", false), ("rtmp://live.example.com/apple", false),
        ("rtmp://live.example.com.evil.net/app/key", false), ("rtmps://live.example.com/app/key", false), ("rtmp://other.example.com/app", false),
        ("https://hooks.example.com/revue/x?y=1", true), ("https://hooks.example.com/revue", true), ("https://hooks.example.com/other", false),
        ("http://hooks.example.com/revue/x", false), ("https://user:pass@hooks.example.com/revue/x", false),
        ("http://127.0.0.1:9999/hook", true), ("http://127.0.0.1/hook", true), ("http://127.0.0.2:9999/hook", false),
        ("not a url", false), ("", false),
    ])
    func onlyWhatAPrefixCoversIsAllowed(_ url: String, _ allowed: Bool) {
        #expect(Self.list.allows(url) == allowed, "\(url)")
    }

    @Test func anEmptyListAllowsNothingAndBadPrefixesAreRefused() {
        #expect(!DestinationAllowList.none.allows("rtmp://live.example.com/app"))
        #expect(throws: SpecError.self) { try DestinationAllowList(["live.example.com"]) }
        #expect(throws: SpecError.self) { try DestinationAllowList(["rtmp:///app"]) }
    }
}
