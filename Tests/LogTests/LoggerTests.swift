import Foundation
@testable import Log
import Testing

@Suite struct LoggerTests {
    @Test func jsonLinesCarryFieldsAndEscapeText() throws {
        let line = LogLine(time: Date(timeIntervalSince1970: 0), level: .warning, label: "worker",
                           message: "stopped \"job\"\n", fields: ["jobId": "j-1", "attempt": 2, "ok": true])
        let text = line.formatted(.json)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["msg"] as? String == "stopped \"job\"\n")
        #expect(object["jobId"] as? String == "j-1")
        #expect(object["attempt"] as? Int == 2)
        #expect(object["ok"] as? Bool == true)
        #expect(object["level"] as? String == "warning")
        #expect(object["time"] as? String == "1970-01-01T00:00:00.000Z")
        #expect(!text.contains("\n"))
    }

    @Test func textFormatIsForPeople() {
        let line = LogLine(time: Date(timeIntervalSince1970: 0), level: .info, label: "api", message: "listening",
                           fields: ["port": 8080])
        #expect(line.formatted(.text) == "1970-01-01T00:00:00.000Z info api: listening port=8080")
    }

    @Test func withAddsFieldsToEveryLine() {
        let logger = Logger(label: "job").with(["jobId": "abc"]).with(["attempt": 1])
        #expect(logger.fields == ["jobId": "abc", "attempt": 1])
    }

    @Test func levelsParseByName() {
        #expect(LogLevel(name: "WARNING") == .warning)
        #expect(LogLevel(name: "loud") == nil)
        #expect(LogLevel.debug < LogLevel.error)
    }
}
