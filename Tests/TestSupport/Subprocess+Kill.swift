import Foundation
import Platform

extension Subprocess {
    /// SIGKILL, then reaps it (a worker a takeover test kills, or leaves behind at its end).
    public func killAndReap() {
        signal(SIGKILL)
        wait()
    }
}
