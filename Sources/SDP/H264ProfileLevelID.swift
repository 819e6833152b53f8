/// The H.264 `profile-level-id` fmtp parameter (RFC 6184 §8.1): three bytes in hex,
/// `profile_idc`, `profile-iop` (the constraint_set flags) and `level_idc`.
///
/// ```
/// profile-level-id = 42 e0 1f
///                    |  |  +-- level_idc 31 (level 3.1)
///                    |  +----- constraint_set0..5 flags: 1110 0000
///                    +-------- profile_idc 66 (Baseline family)
/// ```
public struct H264ProfileLevelID: Sendable, Equatable {
    /// The profiles WebRTC peers offer (H.264 Annex A.2).
    public enum Profile: Sendable, Equatable {
        /// What WebRTC peers must support (RFC 7742 §6.2), and what Revue sends.
        case constrainedBaseline
        /// Baseline without the constraint flag; Revue decodes it.
        case baseline
        /// Main.
        case main
        /// Extended.
        case extended
        /// High (and its constrained variant).
        case high
        /// Any other profile_idc.
        case other(UInt8)
    }

    /// `profile_idc` (66 Baseline, 77 Main, 88 Extended, 100 High).
    public var profileIDC: UInt8
    /// The constraint_set0..5 flags, most significant bit first.
    public var profileIOP: UInt8
    /// `level_idc`: ten times the level (31 is level 3.1).
    public var levelIDC: UInt8

    /// A profile-level-id from its three bytes.
    public init(profileIDC: UInt8, profileIOP: UInt8, levelIDC: UInt8) {
        self.profileIDC = profileIDC
        self.profileIOP = profileIOP
        self.levelIDC = levelIDC
    }

    /// Reads six hex digits; nil for anything else.
    public init?(_ hex: some StringProtocol) {
        guard hex.utf8.count == 6, hex.utf8.allSatisfy(\.isHexDigit), let value = UInt32(hex, radix: 16) else { return nil }
        profileIDC = UInt8(value >> 16)
        profileIOP = UInt8((value >> 8) & 0xFF)
        levelIDC = UInt8(value & 0xFF)
    }

    /// RFC 6184 §8.1: without the parameter, Baseline at level 1 applies.
    public static let absent = H264ProfileLevelID(profileIDC: 0x42, profileIOP: 0x00, levelIDC: 0x0A)

    /// The profile, with the constraint flags that make Baseline, Main or Extended streams
    /// decodable as Constrained Baseline (H.264 A.2.1.1: constraint_set1 on Baseline, set0 on
    /// Main, set0 and set1 on Extended).
    public var profile: Profile {
        let set0 = profileIOP & 0x80 != 0
        let set1 = profileIOP & 0x40 != 0
        switch profileIDC {
        case 0x42: return set1 ? .constrainedBaseline : .baseline
        case 0x4D: return set0 ? .constrainedBaseline : .main
        case 0x58: return set0 && set1 ? .constrainedBaseline : set0 ? .baseline : .extended
        case 0x64: return .high
        default: return .other(profileIDC)
        }
    }

    /// Six lower-case hex digits.
    public var text: String {
        let value = UInt32(profileIDC) << 16 | UInt32(profileIOP) << 8 | UInt32(levelIDC)
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 6 - hex.count) + hex
    }
}
