import Foundation
import JobSpec
import Testing
import TestKit

/// The one JSON reader for what arrives from outside: the same values as Foundation's reader on
/// valid text, a clear error with an offset on anything else, and bounded nesting however deep
/// the text goes (issue 29, findings 1 and 3).
@Suite struct JSONParserTests {
    /// Foundation's reading of a text (JSONDecoder through JSONValue's Codable form, the reader
    /// every body went through before): the reference for valid documents.
    static func reference(_ text: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    static let valid = [
        "null", "true", "false", "0", "-0", "12", "-12.5e3", "1E+2", "0.000001", "1.7976931348623157e308", "\"\"",
        #""plain""#, #""esc \" \\ \/ \b \f \n \r \t""#, #""\u00e9\u4e2d\ud83d\ude00""#, "\"é中😀\"",
        "[]", "{}", " [ 1 , 2 , [ ] , { } ] ", #"{"a":1,"b":[true,false,null],"c":{"d":"e"}}"#,
        #"{"dup":1,"dup":2}"#, "\n\t\r [\"x\"]\n",
    ]

    @Test(arguments: valid)
    func readsWhatFoundationReads(_ text: String) throws {
        let value = try JSONParser().parse(Array(text.utf8))
        let expected = try Self.reference(text)
        // Foundation keeps either duplicate; RFC 8259 §4 leaves it open. Revue keeps the last.
        if text.contains("dup") {
            #expect(value == .object(["dup": .number(2)]))
        } else {
            #expect(value == expected, "\(text)")
        }
    }

    static let invalid: [(text: String, reason: String)] = [
        ("", "the text ends where a value was expected"), ("[1,]", "unexpected character ']'"), ("[1 2]", "expected ',' or ']'"),
        ("{\"a\" 1}", "expected ':'"), ("{\"a\":1,}", "expected a key after ','"), ("{1:2}", "expected a key or '}'"),
        ("01", "leading zero"), ("-", "a number ends after '-'"), ("1.", "digits after '.'"), ("1e", "digits in its exponent"),
        ("1e999", "out of range"), ("NaN", "unexpected character 'N'"), ("tru", "unexpected end"), ("trux", "where 'true' was expected"),
        ("\"abc", "a string is not closed"), ("\"a\u{01}b\"", "raw control character"), (#""\x""#, #"unknown escape '\x'"#),
        (#""\u12""#, "four hex digits"), (#""\u0000""#, "U+0000"), ("\"a\u{0}b\"", "U+0000"), ("1 2", "unexpected text after"),
        ("[[]", "the text ends where ',' or ']' was expected"),
    ]

    @Test(arguments: invalid)
    func refusesWithTheReasonAndWhere(_ text: String, _ reason: String) {
        let failure = #expect(throws: JSONParser.Failure.self) { try JSONParser().parse(Array(text.utf8)) }
        #expect(failure?.reason.contains(reason) == true, "\(text): \(String(describing: failure))")
        #expect((0...text.utf8.count).contains(failure?.offset ?? -1))
    }

    @Test func refusesBytesThatAreNotUTF8() {
        let failure = #expect(throws: JSONParser.Failure.self) { try JSONParser().parse([0x22, 0xC3, 0x28, 0x22]) }
        #expect(failure?.reason == "a string is not UTF-8")
    }

    @Test func aLoneSurrogateBecomesTheReplacementCharacter() throws {
        #expect(try JSONParser().parse(Array(#""a\ud800b""#.utf8)) == .string("a\u{FFFD}b"))
        #expect(try JSONParser().parse(Array(#""\udc00\ud800\u0041""#.utf8)) == .string("\u{FFFD}\u{FFFD}A"))
    }

    /// Finding 1: about 280 levels crashed an HTTP thread. Depth is counted on a stack of its own,
    /// and refused at the limit wherever the text goes on, in arrays, objects and both.
    @Test func nestingIsRefusedAtTheLimitWithoutRecursion() throws {
        let limits = JSONParser.Limits(maxDepth: 64)
        let atLimit = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(try JSONParser(limits: limits).parse(Array(atLimit.utf8)).arrayValue != nil)
        let emptyAtLimit = String(repeating: "{\"a\":", count: 63) + "{}" + String(repeating: "}", count: 63)
        #expect(try JSONParser(limits: limits).parse(Array(emptyAtLimit.utf8)).objectValue != nil)
        for deep in [String(repeating: "[", count: 65) + String(repeating: "]", count: 65),
                     String(repeating: "[", count: 1_000_000),
                     String(repeating: "{\"a\":[", count: 200_000),
                     String(repeating: "{\"k\":", count: 64) + "{}" + String(repeating: "}", count: 64)]
        {
            let failure = #expect(throws: JSONParser.Failure.self) { try JSONParser(limits: limits).parse(Array(deep.utf8)) }
            #expect(failure?.reason == "the document is nested deeper than 64 levels")
            #expect((failure?.offset ?? .max) <= 64 * 6)
        }
    }

    @Test func theValueCountIsBounded() {
        let text = "[" + Array(repeating: "1", count: 101).joined(separator: ",") + "]"
        let failure = #expect(throws: JSONParser.Failure.self) { try JSONParser(limits: .init(maxValues: 100)).parse(Array(text.utf8)) }
        #expect(failure?.reason == "the document has more than 100 values")
    }

    /// Large documents of every shape read the same as Foundation does.
    @Test func largeDocumentsMatchFoundation() throws {
        var random = SeededGenerator(seed: 29)
        for _ in 0..<20 {
            let text = Self.randomDocument(&random, depth: 0)
            #expect(try JSONParser().parse(Array(text.utf8)) == (try Self.reference(text)), "\(text.prefix(200))")
        }
    }

    /// Random bytes and mutated documents: every input is read or refused with an offset inside
    /// it, never a trap. Both outcomes are counted, so a reader that refuses everything fails.
    @Test func randomAndMutatedInputIsReadOrRefused() {
        var random = SeededGenerator(seed: 2029)
        var parsed = 0, refused = 0
        let seeds = Self.valid.map { Array($0.utf8) } + (0..<10).map { _ in Array(Self.randomDocument(&random, depth: 0).utf8) }
        for round in 0..<20_000 {
            let input = round % 4 == 0 ? random.bytes(Int(random.next() % 64)) : random.mutate(seeds[Int(random.next() % UInt64(seeds.count))])
            do {
                _ = try JSONParser().parse(input)
                parsed += 1
            } catch {
                refused += 1
                #expect((0...input.count).contains(error.offset))
            }
        }
        print("measured: JSONParser fuzz: \(parsed) inputs read, \(refused) refused")
        #expect(parsed > 1_000 && refused > 1_000)
    }

    static func randomDocument(_ random: inout SeededGenerator, depth: Int) -> String {
        let choice = depth > 6 ? random.next() % 4 : random.next() % 6
        switch choice {
        case 0: return ["null", "true", "false"][Int(random.next() % 3)]
        case 1: return String(Double(Int64(bitPattern: random.next()) % 1_000_000) / 1000)
        case 2: return String(Int64(bitPattern: random.next()) % 1_000_000_000)
        case 3:
            let pieces = ["a", "é", "\\n", "\\\"", "\\u00e9", "中", "😀", " ", "\\\\", "x/y"]
            return "\"" + (0..<Int(random.next() % 8)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined() + "\""
        case 4:
            return "[" + (0..<Int(random.next() % 6)).map { _ in randomDocument(&random, depth: depth + 1) }.joined(separator: ",") + "]"
        default:
            let members = (0..<Int(random.next() % 6)).map { index in "\"k\(index)\": " + randomDocument(&random, depth: depth + 1) }
            return "{" + members.joined(separator: ", ") + "}"
        }
    }
}
