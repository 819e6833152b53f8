/// Reads JSON text (RFC 8259) into a `JSONValue` in one pass, without recursion: containers
/// are kept on an explicit stack whose height is capped, so what arrives from outside (a REST
/// body, a signalling frame, a whiteboard stroke) costs time linear in its size and a bounded
/// amount of stack, however it is nested. Every failure names the byte where reading stopped.
///
/// Strict where RFC 8259 is (§2 whitespace, §6 numbers, §7 strings: no trailing commas, no
/// leading zeros, no raw control characters, UTF-8 only), plus two rules of Revue's own:
/// strings may not hold U+0000 (PostgreSQL's `jsonb` and C strings cannot, so it is refused at
/// the edge rather than failing later), and numbers must be finite doubles.
public struct JSONParser: Sendable {
    /// What a document may cost.
    public struct Limits: Sendable, Equatable {
        /// Arrays and objects nested inside each other; the top level counts as 1.
        public var maxDepth: Int
        /// Every value, key and container counted once (a bound on memory, not on time).
        public var maxValues: Int

        /// 64 levels, a million values: deeper than any message Revue reads, shallow enough for
        /// the recursive code that later compares, hashes and prints a value on a 512 KiB stack.
        public init(maxDepth: Int = 64, maxValues: Int = 1_000_000) {
            self.maxDepth = maxDepth
            self.maxValues = maxValues
        }
    }

    /// Why a text is not a document Revue reads, and where.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public let reason: String
        /// The byte offset where reading stopped.
        public let offset: Int

        public var description: String { "\(reason) at byte \(offset)" }
    }

    public let limits: Limits

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Parses one JSON text; anything but whitespace after it is an error.
    public func parse(_ bytes: some Collection<UInt8>) throws(Failure) -> JSONValue {
        let contiguous = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(Failure) in try parse(buffer) }
        }
        if let contiguous { return try contiguous.get() }
        let copy = Array(bytes)
        return try copy.withUnsafeBufferPointer { buffer in Result { () throws(Failure) in try parse(buffer) } }.get()
    }

    private func parse(_ input: UnsafeBufferPointer<UInt8>) throws(Failure) -> JSONValue {
        var reader = Reader(input: input, limits: limits)
        return try reader.document()
    }
}

extension JSONParser {
    /// An open container on the stack: a class, so that each value is added in place (a
    /// container moved in and out of an enum case can be copied whole, which makes a wide array
    /// quadratic).
    private final class Open {
        let isArray: Bool
        var elements: [JSONValue] = []
        var members: [String: JSONValue] = [:]
        /// The key of the member being read, in an object.
        var key = ""

        init(array: Bool) { isArray = array }

        func add(_ value: JSONValue) {
            if isArray { elements.append(value) } else { members[key] = value }
        }

        var value: JSONValue { isArray ? .array(elements) : .object(members) }
    }

    private struct Reader {
        let input: UnsafeBufferPointer<UInt8>
        let limits: Limits
        var index = 0
        var values = 0
        var stack: [Open] = []

        init(input: UnsafeBufferPointer<UInt8>, limits: Limits) {
            self.input = input
            self.limits = limits
        }

        func fail(_ reason: String) -> Failure { Failure(reason: reason, offset: index) }

        mutating func skipWhitespace() {
            while index < input.count {
                switch input[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        /// The next byte after whitespace, not consumed.
        mutating func peek(_ expecting: @autoclosure () -> String) throws(Failure) -> UInt8 {
            skipWhitespace()
            guard index < input.count else { throw fail("the text ends where \(expecting()) was expected") }
            return input[index]
        }

        mutating func count() throws(Failure) {
            values += 1
            guard values <= limits.maxValues else { throw fail("the document has more than \(limits.maxValues) values") }
        }

        /// The whole text: one value, then only whitespace.
        mutating func document() throws(Failure) -> JSONValue {
            var value = try valueOrOpen()
            while true {
                // `value` is complete: hand it to the innermost open container, or finish.
                guard let top = stack.last else {
                    skipWhitespace()
                    guard index == input.count else { throw fail("unexpected text after the document") }
                    return value
                }
                top.add(value)
                let next = try peek(top.isArray ? "',' or ']'" : "',' or '}'")
                index += 1
                if next == UInt8(ascii: top.isArray ? "]" : "}") {
                    stack.removeLast()
                    value = top.value
                } else if next == UInt8(ascii: ",") {
                    if !top.isArray { top.key = try memberKey() }
                    value = try valueOrOpen()
                } else {
                    index -= 1
                    throw fail(top.isArray ? "expected ',' or ']' in an array" : "expected ',' or '}' in an object")
                }
            }
        }

        /// A scalar or an empty container, returned whole; or a container with members, opened
        /// on the stack and descended into until a complete value is found.
        mutating func valueOrOpen() throws(Failure) -> JSONValue {
            while true {
                let first = try peek("a value")
                try count()
                switch first {
                case UInt8(ascii: "["):
                    try checkDepth()
                    index += 1
                    if try peek("a value or ']'") == UInt8(ascii: "]") {
                        index += 1
                        return .array([])
                    }
                    stack.append(Open(array: true))
                case UInt8(ascii: "{"):
                    try checkDepth()
                    index += 1
                    if try peek("a key or '}'") == UInt8(ascii: "}") {
                        index += 1
                        return .object([:])
                    }
                    let object = Open(array: false)
                    object.key = try memberKey(first: true)
                    stack.append(object)
                case UInt8(ascii: "\""):
                    return .string(try string())
                case UInt8(ascii: "t"): return try literal("true", .bool(true))
                case UInt8(ascii: "f"): return try literal("false", .bool(false))
                case UInt8(ascii: "n"): return try literal("null", .null)
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    return .number(try number())
                default:
                    throw fail("unexpected character '\(Reader.printable(first))' where a value was expected")
                }
            }
        }

        /// A container about to open sits at depth `stack.count + 1`.
        func checkDepth() throws(Failure) {
            guard stack.count < limits.maxDepth else { throw fail("the document is nested deeper than \(limits.maxDepth) levels") }
        }

        /// `"key" :` (after '{' or ',').
        mutating func memberKey(first: Bool = false) throws(Failure) -> String {
            guard try peek("a key") == UInt8(ascii: "\"") else {
                throw fail(first ? "expected a key or '}' in an object" : "expected a key after ',' in an object")
            }
            try count()
            let key = try string()
            guard try peek("':'") == UInt8(ascii: ":") else { throw fail("expected ':' after an object's key") }
            index += 1
            return key
        }

        mutating func literal(_ text: StaticString, _ value: JSONValue) throws(Failure) -> JSONValue {
            let count = text.utf8CodeUnitCount
            guard input.count - index >= count else { throw fail("unexpected end of the text in '\(text)'") }
            let matches = text.withUTF8Buffer { expected in
                (0..<count).allSatisfy { input[index + $0] == expected[$0] }
            }
            guard matches else { throw fail("unexpected characters where '\(text)' was expected") }
            index += count
            return value
        }

        /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, finite.
        mutating func number() throws(Failure) -> Double {
            let start = index
            func digits(_ reader: inout Reader) -> Int {
                let from = reader.index
                while reader.index < reader.input.count, reader.input[reader.index] >= 0x30, reader.input[reader.index] <= 0x39 {
                    reader.index += 1
                }
                return reader.index - from
            }
            if input[index] == UInt8(ascii: "-") { index += 1 }
            guard index < input.count else { throw fail("a number ends after '-'") }
            if input[index] == UInt8(ascii: "0") {
                index += 1
                if index < input.count, input[index] >= 0x30, input[index] <= 0x39 { throw fail("a number has a leading zero") }
            } else if digits(&self) == 0 {
                throw fail("a number needs digits")
            }
            if index < input.count, input[index] == UInt8(ascii: ".") {
                index += 1
                guard digits(&self) > 0 else { throw fail("a number needs digits after '.'") }
            }
            if index < input.count, input[index] == UInt8(ascii: "e") || input[index] == UInt8(ascii: "E") {
                index += 1
                if index < input.count, input[index] == UInt8(ascii: "+") || input[index] == UInt8(ascii: "-") { index += 1 }
                guard digits(&self) > 0 else { throw fail("a number needs digits in its exponent") }
            }
            // Digits beyond a double's precision change nothing but the cost of reading them.
            guard index - start <= 400 else { throw fail("a number is longer than 400 characters") }
            let text = String(decoding: UnsafeBufferPointer(rebasing: input[start..<index]), as: UTF8.self)
            guard let value = Double(text), value.isFinite else { throw fail("the number \(text.prefix(40)) is out of range") }
            return value
        }

        /// RFC 8259 §7, from the opening quote.
        mutating func string() throws(Failure) -> String {
            index += 1
            let start = index
            // The common case: no escapes, so the bytes are the string.
            while index < input.count {
                let byte = input[index]
                if byte == UInt8(ascii: "\"") {
                    let slice = UnsafeBufferPointer(rebasing: input[start..<index])
                    guard let text = String(validating: slice, as: UTF8.self) else { throw fail("a string is not UTF-8") }
                    index += 1
                    return text
                }
                if byte == UInt8(ascii: "\\") { break }
                if byte < 0x20 { throw fail(byte == 0 ? "a string holds U+0000" : "a string holds a raw control character") }
                index += 1
            }
            var bytes = Array(UnsafeBufferPointer(rebasing: input[start..<index]))
            while index < input.count {
                let byte = input[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    guard let text = String(validating: bytes, as: UTF8.self) else { throw fail("a string is not UTF-8") }
                    return text
                case UInt8(ascii: "\\"):
                    index += 1
                    try escape(into: &bytes)
                case 0..<0x20:
                    throw fail(byte == 0 ? "a string holds U+0000" : "a string holds a raw control character")
                default:
                    bytes.append(byte)
                    index += 1
                }
            }
            throw fail("a string is not closed")
        }

        /// One escape, after its backslash.
        mutating func escape(into bytes: inout [UInt8]) throws(Failure) {
            guard index < input.count else { throw fail("a string ends in an escape") }
            let letter = input[index]
            index += 1
            switch letter {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(letter)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    // A high surrogate pairs with a following \uDC00-\uDFFF; alone it is U+FFFD.
                    if input.count - index >= 6, input[index] == UInt8(ascii: "\\"), input[index + 1] == UInt8(ascii: "u") {
                        let mark = index
                        index += 2
                        let low = try hex4()
                        if (0xDC00...0xDFFF).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            scalar = 0xFFFD
                            index = mark
                        }
                    } else {
                        scalar = 0xFFFD
                    }
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    scalar = 0xFFFD
                }
                guard scalar != 0 else { throw fail("a string holds U+0000") }
                let character = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                bytes.append(contentsOf: String(Character(character)).utf8)
            default:
                index -= 1
                throw fail("a string has an unknown escape '\\\(Reader.printable(letter))'")
            }
        }

        mutating func hex4() throws(Failure) -> UInt32 {
            guard input.count - index >= 4 else { throw fail("a \\u escape needs four hex digits") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = input[index]
                let digit: UInt8
                switch byte {
                case 0x30...0x39: digit = byte - 0x30
                case 0x41...0x46: digit = byte - 0x41 + 10
                case 0x61...0x66: digit = byte - 0x61 + 10
                default: throw fail("a \\u escape needs four hex digits")
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        static func printable(_ byte: UInt8) -> String {
            (0x21...0x7E).contains(byte) ? String(UnicodeScalar(byte)) : "0x" + String(byte, radix: 16)
        }
    }
}
