import Foundation
import TestSupport
import Testing

/// The deployment examples (deploy/): every variable they set is one docs/CONFIGURATION.md
/// documents, and the three-node example's nodes share what a cluster shares and differ in
/// what is each node's own.
@Suite struct DeployExampleTests {
    static func variables(_ path: String) throws -> [String: String] {
        let text = try String(contentsOfFile: TestFixtures.repositoryRoot + "/" + path, encoding: .utf8)
        var found: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let setting = line.hasPrefix("#") ? line.dropFirst() : line[...]
            guard let equals = setting.firstIndex(of: "="), setting.first?.isUppercase == true else { continue }
            let name = String(setting[..<equals])
            guard name.allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "_" }) else { continue }
            found[name] = String(setting[setting.index(after: equals)...])
        }
        return found
    }

    @Test func everyVariableTheExamplesSetIsDocumented() throws {
        let documented = try String(contentsOfFile: TestFixtures.repositoryRoot + "/docs/CONFIGURATION.md", encoding: .utf8)
        for file in ["deploy/revue.env.example", "deploy/cluster/node-1.env", "deploy/cluster/node-2.env", "deploy/cluster/node-3.env"] {
            let names = try Self.variables(file).keys.sorted()
            #expect(!names.isEmpty, "\(file)")
            for name in names { #expect(documented.contains("`\(name)`"), "\(file) sets \(name), which docs/CONFIGURATION.md does not document") }
        }
    }

    @Test func theThreeNodesShareTheClusterAndKeepTheirOwnNames() throws {
        let nodes = try (1...3).map { try Self.variables("deploy/cluster/node-\($0).env") }
        for shared in ["DATABASE_URL", "REVUE_API_KEY", "REVUE_API_SECRET", "REVUE_WEBHOOK_KEY"] {
            #expect(Set(nodes.map { $0[shared] ?? "" }).count == 1 && nodes[0][shared] != nil, "\(shared) differs between the nodes")
        }
        for own in ["REVUE_NODE_ID", "REVUE_PUBLIC_URL", "REVUE_RTC_ANNOUNCE", "REVUE_WORKER_ID"] {
            #expect(Set(nodes.compactMap { $0[own] }).count == 3, "\(own) must be each node's own")
        }
    }
}
