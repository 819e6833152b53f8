import Fixture
import Foundation
import Platform

/// Finds the checkout's files a command uses when run from it (the demo's fixture rooms).
enum ProjectPaths {
    /// The checkout's `Tests/Fixtures`, found from the working directory or the executable.
    static func fixtures() -> String? {
        for candidate in CheckoutSearch.directories() {
            let path = candidate.appendingPathComponent("Tests/Fixtures").path
            if Fixture.exists(at: path + "/example") { return path }
        }
        return nil
    }
}
