import Crypto
import Testing

@Suite struct Base64URLTests {
    @Test func noPaddingAndOtherTextIsRejected() {
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
        #expect(Base64URL.decode("a+b=") == nil)
        #expect(Base64URL.decode("a") == nil)
    }
}
