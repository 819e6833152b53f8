import Crypto
import JobSpec
import Media

/// Decrypts the `E2EEFrame`s of the streams a receiver gets, with the keys it was given: the
/// shared key, or the sending participant's. Derived keys are kept per (participant, key ID);
/// each key ID's counter must rise, so a replayed frame is refused (RFC 9605 §9.3). One thread
/// uses it.
public final class FrameDecryptor {
    public private(set) var keys: E2EEKeys
    private var derived: [DerivedKeyID: SFrameKey] = [:]
    private var lastCounter: [DerivedKeyID: UInt64] = [:]

    private struct DerivedKeyID: Hashable {
        let baseKey: String
        let keyID: UInt64
    }

    public init(keys: E2EEKeys) {
        self.keys = keys
    }

    /// New keys take effect with the next frame (`setParticipantKey` while in a room).
    public func update(_ keys: E2EEKeys) {
        self.keys = keys
        derived.removeAll()
    }

    /// The frame as it was before `FrameEncryptor.encrypt` of `codec`. An H.264 frame's slice
    /// NAL units must each open (one that was sent in the clear does not); its other units pass.
    public func decrypt(_ frame: [UInt8], from participantID: String, codec: TrackCodec) throws(E2EEError) -> [UInt8] {
        guard codec == .h264 else { return try decrypt(frame, from: participantID) }
        var clear: [UInt8] = []
        clear.reserveCapacity(frame.count)
        for unit in AnnexBStream.units(of: frame) {
            clear += AnnexB.startCode
            guard let header = unit.first, AnnexB.isSlice(header) else {
                clear += unit
                continue
            }
            clear += try decrypt([header] + AnnexB.unescape(unit.dropFirst()), from: participantID)
        }
        return clear
    }

    /// The frame as it was before `FrameEncryptor.encrypt`, for VP8 and Opus (a frame sealed
    /// whole).
    public func decrypt(_ frame: [UInt8], from participantID: String) throws(E2EEError) -> [UInt8] {
        guard frame.count >= E2EEFrame.trailerLength + 1 + AESGCM.tagLength else { throw .malformed("\(frame.count) bytes") }
        let headerLength = Int(frame[frame.count - 1])
        let prefixLength = Int(frame[frame.count - 2])
        let headerStart = frame.count - E2EEFrame.trailerLength - headerLength
        guard headerLength >= 1, headerStart - AESGCM.tagLength >= prefixLength else {
            throw .malformed("a \(headerLength)-byte header and a \(prefixLength)-byte prefix in \(frame.count) bytes")
        }
        let headerBytes = Array(frame[headerStart..<(frame.count - E2EEFrame.trailerLength)])
        let parsed: (header: SFrameHeader, length: Int)
        do {
            parsed = try SFrameHeader.parse(headerBytes)
        } catch {
            throw .malformed("\(error)")
        }
        guard parsed.length == headerLength else { throw .malformed("the header is \(parsed.length) bytes, not \(headerLength)") }
        let header = parsed.header
        guard let baseKey = keys.key(for: participantID) else { throw .noKey(participantID: participantID) }
        let id = DerivedKeyID(baseKey: baseKey, keyID: header.keyID)
        if let last = lastCounter[id], header.counter <= last { throw .replayed(counter: header.counter) }
        let key: SFrameKey
        if let cached = derived[id] {
            key = cached
        } else {
            do {
                key = try SFrameKey(baseKey: Array(baseKey.utf8), keyID: header.keyID)
            } catch {
                throw .cipher("\(error)")
            }
            derived[id] = key
        }
        let prefix = Array(frame[..<prefixLength])
        let plaintext: [UInt8]
        do {
            plaintext = try key.cipher.open(frame[prefixLength..<headerStart], nonce: key.nonce(counter: header.counter),
                                            authenticating: headerBytes + prefix)
        } catch .authenticationFailed {
            throw .authenticationFailed
        } catch {
            throw .cipher("\(error)")
        }
        lastCounter[id] = header.counter
        return prefix + plaintext
    }
}
