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

    /// hls.js 1.6.15 as one ES module (`hlsjs/` beside the test venv; scripts/bootstrap extracts
    /// it from PyPI's gradio wheel). Its exports are minified: `t` is `attach(video, url,
    /// onManifest)`, which returns the `Hls` instance.
    public static func hlsJS() throws -> String {
        let venv = ProcessInfo.processInfo.environment["REVUE_TEST_VENV"] ?? TestFixtures.repositoryRoot + "/.revue-test/venv"
        let path = URL(fileURLWithPath: venv).deletingLastPathComponent().path + "/hlsjs/hls-1.6.15.js"
        guard FileManager.default.fileExists(atPath: path) else { throw ToolError("hls.js is not installed (\(path) is missing); run scripts/bootstrap") }
        return path
    }

    /// A script of `Tests/Peers/`.
    public static func script(_ name: String) -> String { TestFixtures.repositoryRoot + "/Tests/Peers/" + name }
}
