import APNsCore
import APNsServer
import APNsTestSupport
import Foundation
import Testing

/// Seeds as people write them, broken at random (issue 71: seed parsing was not fuzzed): the
/// typical app's seed (docs/seeds/typical-app.yaml) changed node by node (a value of another
/// kind, a member gone, an unknown one added, a list emptied or grown) and byte by byte in its
/// YAML. Whatever the file says: no crash, the same verdict twice, and a refusal is serve's
/// configuration error naming the file (`seed <path>`), never another error.
@Suite("Fuzzing: seed documents")
struct SeedFuzzTests {
    /// The typical app's seed, as JSON (the YAML file's content).
    static let typical = #"""
        {"version":1,"keys":[{"keyId":"ABC123DEFG","teamId":"DEF123GHIJ","environment":"sandbox","publicKey":"-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEkCJxxXpG6Q0W7ylPGfr0yhvoOzgh\n3FCogjWYnDZZuMhPfImJ5lIdMIkfQSoessYhS2F2qB5CTDXhuwJ3OSDnsg==\n-----END PUBLIC KEY-----\n"}],"devices":[{"id":"iphone-15","power":{"online":true,"lowPowerMode":false,"locked":true},"apps":[{"topic":"com.example.shop","token":"5d1c2f3e4a5b6c7d8e9f00112233445566778899aabbccddeeff001122334455","settings":{"authorization":{"status":"authorized","alert":true,"sound":true,"badge":true},"appState":"background","iosVersion":"18.0","categories":[{"identifier":"ORDER_SHIPPED","actions":[{"identifier":"TRACK","title":"Track","options":["foreground"]},{"identifier":"REPLY","title":"Message the shop","textInput":{"buttonTitle":"Send","placeholder":"Your message"}}]}],"activityTypes":{"DeliveryAttributes":{"attributes":{"orderNumber":"string"},"contentState":{"status":"string","eta":"date"}}}}}]}],"faults":[{"match":{"topic":"com.example.shop","pushType":"background"},"action":{"type":"respond","reason":"TooManyRequests"},"times":1}],"clock":{"offset":"0s"}}
        """#
    static let origin = "seed fuzz.json"

    enum Verdict: Equatable {
        case read
        case refused(ServerError)
    }

    static func verdict(_ root: JSONValue) -> Verdict {
        do {
            _ = try SeedDocument(root, origin: Self.origin, directory: "/nonexistent")
            return .read
        } catch {
            return .refused(error)
        }
    }

    @Test(
        "the typical seed changed node by node: read, or refused as a configuration error naming it",
        arguments: SeededGenerator.seeds(fixed: 0x5EED_F022))
    func structure(seed: UInt64) throws {
        let base = try #require(JSONValue.parse(Array(Self.typical.utf8)))
        #expect(Self.verdict(base) == .read, "the unchanged seed reads")
        var random = SeededGenerator(state: seed)
        var refused = 0
        for index in 0..<1500 {
            var root = base
            for _ in 0..<Int.random(in: 1...3, using: &random) { root = Self.mutate(root, depth: 0, &random) }
            let verdict = Self.verdict(root)
            #expect(Self.verdict(root) == verdict, "case \(index): the same seed was judged two ways")
            guard case .refused(let error) = verdict else { continue }
            refused += 1
            #expect(
                error.code == .badConfiguration && error.subject.hasPrefix(Self.origin) && !error.message.isEmpty,
                "case \(index) of seed \(String(seed, radix: 16)): \(error)")
        }
        #expect(refused > 150, "refused \(refused) of 1500: the changes reach the checks")
    }

    @Test(
        "the typical seed's YAML changed byte by byte: read, or refused naming the file",
        arguments: SeededGenerator.seeds(fixed: 0x9A31_F022))
    func yamlBytes(seed: UInt64) throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../docs/seeds/typical-app.yaml"
        ).standardized.path
        let yaml = try #require(FileManager.default.contents(atPath: source)).map { $0 }
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let path = directory.appending("seed.yaml")
        var random = SeededGenerator(state: seed)
        for index in 0..<300 {
            var bytes = yaml
            let at = Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: bytes[at] = Array(" :-{}[]#'\"\t\n\u{0}xé".utf8).randomElement(using: &random) ?? 0
            case 1: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...40, using: &random)))
            default: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 30)], at: at)
            }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            do {
                _ = try SeedDocument.read(path)
            } catch let error as ServerError {
                #expect(error.code == .badConfiguration && error.subject.hasPrefix("seed \(path)"), "case \(index): \(error)")
            } catch {
                Issue.record("case \(index) of seed \(String(seed, radix: 16)): not a configuration error: \(error)")
            }
        }
    }

    /// What the byte fuzzer's fresh seed 34c0cc07de3ee5c found: Yams stopped the process on a
    /// mapping key that is a list or a mapping (a stray `[` or `{` before a colon). Refused now.
    @Test(
        "a list or a mapping as a YAML key is refused naming its kind and line, not a crash",
        arguments: ["? [a, b]\n: 1", "{a: 1}: 2"])
    func complexKeys(key: String) throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let path = directory.appending("seed.yaml")
        try Data("version: 1\ndevices:\n  - id: phone\n    \(key.replacingOccurrences(of: "\n", with: "\n    "))\n".utf8)
            .write(to: URL(fileURLWithPath: path))
        do {
            _ = try SeedDocument.read(path)
            Issue.record("read")
        } catch let error as ServerError {
            let kind = key.hasPrefix("?") ? "list" : "mapping"
            #expect(
                error.code == .badConfiguration && error.subject == "seed \(path)"
                    && error.message.contains("a \(kind) as a mapping's key (line 4)"), "\(error)")
        }
    }

    /// `value` with one node somewhere in it changed.
    static func mutate(_ value: JSONValue, depth: Int, _ random: inout SeededGenerator) -> JSONValue {
        let descend = depth < 8 && Int.random(in: 0..<4, using: &random) != 0
        switch value {
        case .object(var members) where descend && !members.isEmpty:
            let keys = members.keys.sorted()
            let key = keys[Int.random(in: 0..<keys.count, using: &random)]
            switch Int.random(in: 0..<6, using: &random) {
            case 0: members[key] = nil
            case 1: members["unknownMember"] = Self.leaf(&random)
            default: members[key] = Self.mutate(members[key] ?? .null, depth: depth + 1, &random)
            }
            return .object(members)
        case .array(var items) where descend && !items.isEmpty:
            let at = Int.random(in: 0..<items.count, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0: items = []
            case 1: items.append(items[at])
            default: items[at] = Self.mutate(items[at], depth: depth + 1, &random)
            }
            return .array(items)
        default:
            return Self.leaf(&random)
        }
    }

    /// A value of any kind: near misses of what seeds hold, and the wrong kinds.
    static func leaf(_ random: inout SeededGenerator) -> JSONValue {
        let choices: [JSONValue] = [
            .null, .bool(true), .number(-1), .number(0), .number(1e300), .number(2.5), .string(""), .string("x"),
            .string(String(repeating: "ab", count: 200)), .string("zz"), .string("2026-13-45T99:99:99Z"), .string("-5s"),
            .string("com.example.shop"), .array([]), .array([.string("x")]), .object([:]), .object(["a": .number(1)]),
        ]
        return choices[Int.random(in: 0..<choices.count, using: &random)]
    }
}
