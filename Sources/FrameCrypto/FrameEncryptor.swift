import Crypto
import Media

/// Encrypts one sender stream's frames into `E2EEFrame`s. Its key ID is random, so the derived
/// key (and so every nonce) is its own even when the room shares one base key; the counter
/// counts frames from 0 and never repeats under that key. One thread uses it.
public final class FrameEncryptor {
    public let codec: TrackCodec
    public let keyID: UInt64
    /// The key it was made from, so its owner can tell when the key changed.
    public let baseKey: String
    private let key: SFrameKey
    private var counter: UInt64 = 0

    public init(baseKey: String, codec: TrackCodec, keyID: UInt64 = UInt64.random(in: 8...UInt64.max)) throws(E2EEError) {
        self.codec = codec
        self.keyID = keyID
        self.baseKey = baseKey
        do {
            key = try SFrameKey(baseKey: Array(baseKey.utf8), keyID: keyID)
        } catch {
            throw .cipher("\(error)")
        }
    }

    /// The encrypted frame. H.264 (an Annex B access unit) comes out as Annex B again, each
    /// slice NAL unit sealed on its own with the next counter.
    public func encrypt(_ frame: [UInt8]) throws(E2EEError) -> [UInt8] {
        guard codec == .h264 else { return try seal(frame, prefixLength: E2EEFrame.clearPrefixLength(of: frame, codec: codec)) }
        var sealed: [UInt8] = []
        sealed.reserveCapacity(frame.count + 64)
        for unit in AnnexBStream.units(of: frame) {
            sealed += AnnexB.startCode
            guard let header = unit.first, AnnexB.isSlice(header) else {
                sealed += unit
                continue
            }
            // The NAL header and the slice header's first byte (first_mb_in_slice starts there)
            // stay clear: receivers tell where a picture starts from them.
            let unitSealed = try seal(Array(unit), prefixLength: E2EEFrame.clearPrefixLength(of: Array(unit), codec: .h264))
            sealed.append(header)
            sealed += AnnexB.escape(unitSealed.dropFirst())
        }
        return sealed
    }

    private func seal(_ frame: [UInt8], prefixLength: Int) throws(E2EEError) -> [UInt8] {
        let header = SFrameHeader(keyID: keyID, counter: counter).bytes
        let prefix = frame[..<prefixLength]
        let sealed: [UInt8]
        do {
            sealed = try key.cipher.seal(frame[prefixLength...], nonce: key.nonce(counter: counter), authenticating: header + prefix)
        } catch {
            throw .cipher("\(error)")
        }
        counter += 1
        return Array(prefix) + sealed + header + [UInt8(prefixLength), UInt8(header.count)]
    }
}
