import Foundation

/// An in-memory link whose clock the test drives (`SCTPTestLink`, `DTLSDataChannelLink`).
protocol DrivenLink: AnyObject {
    /// Delivers what is in flight and advances the link's clock, for at most `linkSeconds`
    /// of link time, until `done`; true when `done`.
    func drive(for linkSeconds: Double, until done: () -> Bool) -> Bool
}

extension DrivenLink {
    /// Runs the link until `done`, allowing usrsctp's own threads up to thirty real seconds.
    /// (Twice a CI run's `closingOverDTLS` never came up, in 10 and then in 30 s: not late
    /// threads but the live tests' associations moving the one timer wheel by hours on
    /// another clock, which exhausted the link's INIT; links read clocks of their own since,
    /// `SCTPClock`.)
    ///
    /// Pumps in short stretches of link time with a moment of real time between, so the
    /// injected clock does not race far ahead of the real one, which usrsctp also reads (CI runs
    /// saw "channel 0 is connecting", and a channel closed before its association was up).
    @discardableResult
    func runAllowingForUsrsctpThreads(until done: () -> Bool) -> Bool {
        let realDeadline = Date().addingTimeInterval(30)
        while !drive(for: 0.2, until: done) {
            guard Date() < realDeadline else { return false }
            Thread.sleep(forTimeInterval: 0.002)
        }
        return true
    }
}
