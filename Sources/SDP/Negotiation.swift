/// The outcome of one offer/answer exchange: a summary per m-section, in m-line order.
public struct Negotiation: Sendable, Equatable {
    /// One summary per m-section, in m-line order.
    public var media: [NegotiatedMedia]
    /// The mids of the answer's BUNDLE group, which share one ICE/DTLS transport (RFC 9143).
    public var bundle: [String]
    /// Whether the remote side is ICE-lite (`a=ice-lite`, RFC 8445 §2.5): then the local side controls.
    public var remoteICELite: Bool

    /// A negotiation outcome.
    public init(media: [NegotiatedMedia], bundle: [String], remoteICELite: Bool) {
        self.media = media
        self.bundle = bundle
        self.remoteICELite = remoteICELite
    }

    /// The summary of one mid.
    public func media(mid: String) -> NegotiatedMedia? { media.first { $0.mid == mid } }

    /// The accepted sections.
    public var accepted: [NegotiatedMedia] { media.filter(\.isAccepted) }

    /// The remote ICE credentials of the BUNDLE transport (those of its first accepted section).
    public var remoteICE: (ufrag: String, pwd: String)? {
        accepted.first.map { ($0.remoteICEUfrag, $0.remoteICEPwd) }
    }
}
