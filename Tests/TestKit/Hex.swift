/// Bytes from hex text, for test vectors written as the RFCs print them: whitespace is ignored.
/// Text that is not hex is a bug in the test, so it traps rather than yield a short vector.
public func bytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex.filter { !$0.isWhitespace })
    precondition(digits.count % 2 == 0, "odd hex length")
    return stride(from: 0, to: digits.count, by: 2).map { index in
        guard let value = UInt8(String(digits[index...index + 1]), radix: 16) else { preconditionFailure("bad hex") }
        return value
    }
}
