import Foundation

/// The Python test peers (aiortc from PyPI) that `scripts/bootstrap` installs in a virtual
/// environment, and the scripts in `Tests/Peers/` that use them.
public enum TestPeers {
    /// The environment's Python: `REVUE_TEST_VENV/bin/python`, else the checkout's `.revue-test/venv`.
    public static func python() throws -> String {
        let venv = ProcessInfo.processInfo.environment["REVUE_TEST_VENV"] ?? TestFixtures.repositoryRoot + "/.revue-test/venv"
        let python = venv + "/bin/python"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw ToolError("the test peers are not installed (\(python) is missing); run scripts/bootstrap, which installs aiortc")
        }
        return python
    }

    /// A script of `Tests/Peers/`.
    public static func script(_ name: String) -> String { TestFixtures.repositoryRoot + "/Tests/Peers/" + name }
}
