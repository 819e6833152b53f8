import Foundation
import Synchronization

/// SIGINT and SIGTERM ask a running command to stop cleanly (finish its files); a second one
/// exits at once.
enum StopSignal {
    static let flag = Atomic<Int>(0)

    static var requested: Bool { flag.load(ordering: .relaxed) > 0 }

    static func install() {
        for number in [SIGINT, SIGTERM] {
            signal(number) { _ in
                if StopSignal.flag.add(1, ordering: .relaxed).newValue > 1 { _exit(130) }
            }
        }
    }
}
