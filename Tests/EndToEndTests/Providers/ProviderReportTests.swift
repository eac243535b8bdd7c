import APNsTestSupport
import Foundation
import Testing

/// The report card, end to end with real clients (`Tests/ThirdParty/provider_report.py`): aioapns
/// (PyPI) under code written as Apple asks, and an httpx script written as the client trackers'
/// bug reports describe (a connection and a token per push, pushing on after 410, retrying 429 at
/// once and a 400 unchanged). Each check's source is in `ProviderChecks`: Apple's "Establishing a
/// token-based connection to APNs", "Sending notification requests to APNs", "Handling
/// notification responses from APNs", and RFC 9113, section 6.8.
@Suite("The provider's report card")
struct ProviderReportTests {
    static let topic = "com.example.report"
    static let python = ProcessInfo.processInfo.environment["APNS_EMULATOR_PYTHON"] ?? "python3"

    /// A device token for each push target: the first unregistered (410), the second throttled
    /// once (429), the rest ordinary.
    static func targets(_ emulator: RunningEmulator) async throws -> [String] {
        var tokens: [String] = []
        for _ in 0..<4 {
            let token = try #require(
                try await emulator.adminObject(
                    "/api/v1/devices", method: "POST", body: #"{"topic": "\#(Self.topic)"}"#, status: 201)[
                        "token"] as? String)
            tokens.append(token)
        }
        _ = try await emulator.adminObject("/api/v1/devices/\(tokens[0])/unregister", method: "POST")
        try await Self.throttleOnce(tokens[1], emulator)
        return tokens
    }

    /// A fault rule: the next push to `token` is answered 429 TooManyRequests.
    static func throttleOnce(_ token: String, _ emulator: RunningEmulator) async throws {
        _ = try await emulator.adminObject(
            "/api/v1/faults", method: "POST",
            body:
                #"{"match": {"token": "\#(token)"}, "action": {"type": "respond", "reason": "TooManyRequests", "status": 429}, "times": 1}"#,
            status: 201)
    }

    /// Runs one provider (`good` or `bad`) with a key of its own; its report, checks by id.
    static func run(
        _ mode: String, keyID: String, _ emulator: RunningEmulator, tokens: [String]
    ) async throws -> (report: [String: Any], checks: [String: [String: Any]]) {
        let probe = try await Subprocess.run(Self.python, ["-c", "import aioapns, httpx, jwt, jsonschema"])
        try #require(probe.status == 0, "aioapns, httpx, PyJWT or jsonschema is missing: .ci/run installs them (\(probe.stderr))")
        let key = try emulator.registerKey(keyID: keyID, teamID: "TEAM000001")
        let p8 = emulator.directory.appending("AuthKey_\(keyID).p8")
        try key.p8.write(toFile: p8, atomically: true, encoding: .utf8)
        let arguments = [
            Checkout.thirdParty("provider_report.py"), mode, "127.0.0.1", String(emulator.http2Port), emulator.caPath, p8, keyID,
            key.teamID, Self.topic,
        ]
        let run = try await Subprocess.run(Self.python, arguments + tokens)
        try #require(run.status == 0, "provider_report.py \(mode) failed: \(run.stderr)")
        let id = "token-TEAM000001-\(keyID)"
        let providers = try #require(try await emulator.adminObject("/api/v1/providers")["items"] as? [[String: Any]])
        let listed = try #require(providers.first { $0["id"] as? String == id }, "\(providers)")
        #expect(
            listed["kind"] as? String == "token" && listed["keyId"] as? String == keyID
                && listed["teamId"] as? String == "TEAM000001")
        let response = try await emulator.admin("/api/v1/providers/\(id)/report")
        #expect(response.status == 200)
        try await Self.validate(response.text, schema: "ProviderReport", in: emulator)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: Any])
        let checks = try #require(report["checks"] as? [[String: Any]])
        return (report, Dictionary(uniqueKeysWithValues: checks.map { ($0["id"] as? String ?? "", $0) }))
    }

    /// The document validates against openapi.json's schema (jsonschema, PyPI).
    static func validate(_ text: String, schema: String, in emulator: RunningEmulator) async throws {
        let document = emulator.directory.appending("\(schema)-\(UUID().uuidString.prefix(6)).json")
        try text.write(toFile: document, atomically: true, encoding: .utf8)
        let openapi = Checkout.root.appendingPathComponent("Sources/APNsServer/Admin/openapi.json").path
        let run = try await Subprocess.run(Self.python, [Checkout.thirdParty("openapi_validate.py"), openapi, schema, document])
        #expect(run.status == 0, "the report does not match openapi.json: \(run.stderr)")
    }

    static func verdicts(_ checks: [String: [String: Any]]) -> [String: String] {
        checks.mapValues { $0["verdict"] as? String ?? "" }
    }

    static func summary(_ checks: [String: [String: Any]], _ id: String) -> String {
        ((checks[id]?["evidence"] as? [String: Any])?["summary"] as? String) ?? ""
    }

    static func apnsIDs(_ checks: [String: [String: Any]], _ id: String) -> [String] {
        ((checks[id]?["evidence"] as? [String: Any])?["apnsIds"] as? [String]) ?? []
    }

    @Test(
        "a well-behaved client (aioapns) passes every check it exercises; a badly written one fails exactly those it breaks, with evidence"
    )
    func goodAndBad() async throws {
        try await withEmulator { emulator in
            let tokens = try await Self.targets(emulator)
            let good = try await Self.run("good", keyID: "GOODKEY001", emulator, tokens: tokens)
            let goodVerdicts = Self.verdicts(good.checks)
            #expect(good.report["verdict"] as? String == "pass", "\(good.checks)")
            #expect(
                goodVerdicts == [
                    "token-reuse": "pass", "connection-reuse": "pass", "unregistered-respected": "pass", "backoff": "pass",
                    "futile-retries": "notSeen", "goaway-recovery": "notSeen", "push-type-and-priority": "pass",
                    "expiration": "notSeen", "environment": "pass",
                ], "\(good.checks)")
            #expect(
                Self.summary(good.checks, "connection-reuse").hasPrefix("16 requests over 1 connection (16 per connection)"),
                "\(good.checks)")

            // A new fault rule for the bad client's throttled push.
            try await Self.throttleOnce(tokens[1], emulator)
            let bad = try await Self.run("bad", keyID: "BADKEY0001", emulator, tokens: tokens)
            #expect(bad.report["verdict"] as? String == "fail")
            #expect(
                Self.verdicts(bad.checks) == [
                    "token-reuse": "fail", "connection-reuse": "fail", "unregistered-respected": "fail", "backoff": "fail",
                    "futile-retries": "fail", "goaway-recovery": "notSeen", "push-type-and-priority": "pass",
                    "expiration": "notSeen", "environment": "pass",
                ], "\(bad.checks)")
            #expect(Self.summary(bad.checks, "connection-reuse").contains("carried a single request"), "\(bad.checks)")
            #expect(Self.summary(bad.checks, "backoff").contains("sooner than 1 s"), "\(bad.checks)")
            #expect(Self.summary(bad.checks, "unregistered-respected").contains("1 request was sent to 1 of them after"))
            #expect(Self.summary(bad.checks, "futile-retries").contains("1 sent again unchanged"), "\(bad.checks)")
            for id in ["connection-reuse", "unregistered-respected", "backoff", "futile-retries", "token-reuse"] {
                #expect(!Self.apnsIDs(bad.checks, id).isEmpty, "\(id) names the requests concerned")
            }
            // The evidence's ids are the journal's: each one finds its request.
            let dead = try #require(Self.apnsIDs(bad.checks, "unregistered-respected").first)
            let found = try await emulator.journal("q=\(dead)")
            #expect(found.count == 1 && found.first?["httpStatus"] as? Int == 410, "\(found)")
            try await Self.commandLine(emulator)
        }
    }

    /// `apns-emulator report`: a table per provider; exit 1 on a failed check unless `--fail-on`
    /// leaves it out.
    static func commandLine(_ emulator: RunningEmulator) async throws {
        let binary = Subprocess.emulatorExecutable
        let port = ["--admin-port", String(emulator.adminPort)]
        let all = try await Subprocess.run(binary, ["report"] + port)
        #expect(all.status == 1, "\(all.stdout) \(all.stderr)")
        #expect(all.stdout.contains("token-TEAM000001-GOODKEY001: 16 requests over 1 connection: pass"), "\(all.stdout)")
        #expect(all.stdout.contains("FAIL  connection-reuse") && all.stdout.contains("PASS  connection-reuse"), "\(all.stdout)")
        let failed = "failed: backoff, connection-reuse, futile-retries, token-reuse, unregistered-respected"
        #expect(all.stdout.contains(failed), "\(all.stdout)")
        let good = try await Subprocess.run(binary, ["report", "--provider", "token-TEAM000001-GOODKEY001"] + port)
        #expect(good.status == 0 && !good.stdout.contains("FAIL"), "\(good.stdout) \(good.stderr)")
        let gated = try await Subprocess.run(binary, ["report", "--fail-on", "goaway-recovery,expiration"] + port)
        #expect(gated.status == 0, "\(gated.stdout) \(gated.stderr)")
        let wrong = try await Subprocess.run(binary, ["report", "--fail-on", "backof"] + port)
        #expect(wrong.status != 0 && wrong.stderr.contains("backof is not a check"), "\(wrong.stderr)")
    }
}
