/// Bytes from hex text, for test vectors. Spaces are ignored; bad text is a test bug, so it traps.
func bytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex.filter { !$0.isWhitespace })
    precondition(digits.count % 2 == 0, "odd hex length")
    return stride(from: 0, to: digits.count, by: 2).map { index in
        guard let value = UInt8(String(digits[index...index + 1]), radix: 16) else { preconditionFailure("bad hex") }
        return value
    }
}
