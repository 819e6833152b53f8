@testable import CLI
import Testing

@Suite struct ParsedArgumentsTests {
    let spec = CommandSpec(
        ["record"], summary: "test",
        options: [
            OptionSpec("output", value: "FILE", help: "out", repeatable: true),
            OptionSpec("layout", value: "TYPE", help: "layout", environment: "REVUE_LAYOUT", default: "GRID",
                       allowed: ["GRID", "SPOTLIGHT", "SIDEBAR"]),
            OptionSpec("grid-size", value: "N", help: "n"),
            OptionSpec("realtime", help: "flag"),
        ],
        positionals: [PositionalSpec("DIR", help: "dir", required: false)])

    @Test func valuesComeFromFlagThenEnvironmentThenDefault() throws {
        let none = try ParsedArguments([], spec: spec, environment: [:])
        #expect(none.value("layout") == "GRID")
        let fromEnvironment = try ParsedArguments([], spec: spec, environment: ["REVUE_LAYOUT": "SIDEBAR"])
        #expect(fromEnvironment.value("layout") == "SIDEBAR")
        let fromFlag = try ParsedArguments(["--layout", "SPOTLIGHT"], spec: spec, environment: ["REVUE_LAYOUT": "SIDEBAR"])
        #expect(fromFlag.value("layout") == "SPOTLIGHT")
        let inline = try ParsedArguments(["--layout=SPOTLIGHT"], spec: spec, environment: [:])
        #expect(inline.value("layout") == "SPOTLIGHT")
    }

    @Test func repeatableOptionsCollectEveryValue() throws {
        let parsed = try ParsedArguments(["--output", "a.mp4", "--output", "hls:dir", "fixture"], spec: spec, environment: [:])
        #expect(parsed.values("output") == ["a.mp4", "hls:dir"])
        #expect(parsed.positional(0) == "fixture")
    }

    @Test func flagsTakeNoValue() throws {
        #expect(try ParsedArguments(["--realtime"], spec: spec, environment: [:]).flag("realtime"))
        #expect(throws: UsageError.self) { try ParsedArguments(["--realtime=yes"], spec: spec, environment: [:]) }
    }

    @Test(arguments: [
        (["--bogus"], "unknown option '--bogus'"),
        (["-x"], "unknown option '-x'"),
        (["--layout", "MOSAIC"], "invalid value 'MOSAIC' for '--layout'; allowed values: GRID, SPOTLIGHT, SIDEBAR"),
        (["--layout"], "option '--layout' needs a value"),
        (["--layout", "GRID", "--layout", "GRID"], "given more than once"),
        (["a", "b"], "unexpected argument 'b'"),
    ])
    func badCommandLinesAreUsageErrors(arguments: [String], message: String) {
        let error = #expect(throws: UsageError.self) { try ParsedArguments(arguments, spec: spec, environment: [:]) }
        #expect(error?.message.contains(message) == true)
        #expect(error?.description.contains("revue record --help") == true)
    }

    @Test func badEnvironmentValuesAreUsageErrorsToo() {
        let error = #expect(throws: UsageError.self) {
            try ParsedArguments([], spec: spec, environment: ["REVUE_LAYOUT": "MOSAIC"])
        }
        #expect(error?.message.contains("REVUE_LAYOUT") == true)
    }

    @Test func integersAreChecked() throws {
        #expect(try ParsedArguments(["--grid-size", "9"], spec: spec, environment: [:]).integer("grid-size", in: 1...25) == 9)
        #expect(throws: UsageError.self) {
            try ParsedArguments(["--grid-size", "26"], spec: spec, environment: [:]).integer("grid-size", in: 1...25)
        }
        #expect(throws: UsageError.self) {
            try ParsedArguments(["--grid-size", "nine"], spec: spec, environment: [:]).integer("grid-size")
        }
    }

    /// `revue serve --video-codecs`: the codecs in the order given, VP8 and H.264 by default,
    /// anything else a usage error.
    @Test func videoCodecsAreKnownVideoCodecsEachOnce() throws {
        func codecs(_ arguments: [String], environment: [String: String] = [:]) throws -> [String] {
            try ServiceSetup.videoCodecs(ParsedArguments(arguments, spec: ServeCommand.spec, environment: environment), command: "serve")
                .map(\.rawValue)
        }
        #expect(try codecs([]) == ["VP8", "H264"])
        #expect(try codecs(["--video-codecs", "h264, vp8"]) == ["H264", "VP8"])
        #expect(try codecs([], environment: ["REVUE_VIDEO_CODECS": "VP8"]) == ["VP8"])
        for (bad, message) in [("AV1", "not 'AV1'"), ("opus", "not 'opus'"), ("VP8,vp8", "VP8 twice"), (",", "needs VP8, H264 or both")] {
            let error = #expect(throws: UsageError.self) { try codecs(["--video-codecs", bad]) }
            #expect(error?.message.contains(message) == true, "\(bad): \(String(describing: error))")
        }
    }

    @Test func helpListsOptionsWithTheirEnvironmentAndAllowedValues() {
        let help = spec.helpText
        #expect(help.contains("--layout TYPE"))
        #expect(help.contains("One of: GRID, SPOTLIGHT, SIDEBAR"))
        #expect(help.contains("Env: REVUE_LAYOUT"))
        #expect(help.contains("--help"))
    }
}
