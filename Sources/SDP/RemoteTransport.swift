/// The remote ICE and DTLS parameters that apply to one media section.
///
/// A section's own attributes win, then the session's. Inside a BUNDLE group a section may
/// carry none at all (RFC 9143 §7.1.3 puts them in the tagged section only), so the
/// parameters of the group's first section that has them apply.
struct RemoteTransport: Sendable, Equatable {
    var ufrag: String
    var pwd: String
    var fingerprints: [Fingerprint]
    var setup: SetupRole?

    static func resolve(_ index: Int, in description: SessionDescription) -> RemoteTransport? {
        let media = description.media[index]
        var sources = [media]
        if let bundle = description.bundleGroup, let mid = media.mid, bundle.contains(mid) {
            for tag in bundle {
                if let tagged = description.media.first(where: { $0.mid == tag }) { sources.append(tagged) }
            }
        }
        func first<T>(_ value: (MediaDescription) -> T?) -> T? {
            for source in sources { if let found = value(source) { return found } }
            return nil
        }
        guard let ufrag = first({ description.iceUfrag(of: $0) }), let pwd = first({ description.icePwd(of: $0) }) else { return nil }
        let fingerprints = first { section -> [Fingerprint]? in
            let found = description.fingerprints(of: section)
            return found.isEmpty ? nil : found
        } ?? []
        return RemoteTransport(ufrag: ufrag, pwd: pwd, fingerprints: fingerprints, setup: first { description.setup(of: $0) })
    }
}
