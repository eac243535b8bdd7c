import APNsServer
import APNsTestSupport
import Foundation
import Testing

/// The web inbox (issue 17): served by the binary with a strict Content-Security-Policy, and
/// used in a real headless browser (Chromium through selenium, `Tests/ThirdParty/inbox_browser.py`)
/// while curl pushes over HTTP/2 and TLS. Screenshots go to `.ci/artifacts/inbox/`.
@Suite("Web inbox")
struct InboxBrowserTests {
    /// Where the browser test leaves its screenshots: `.ci/artifacts/inbox` in the checkout.
    static var screenshots: String {
        if let folder = ProcessInfo.processInfo.environment["APNS_EMULATOR_SCREENSHOTS"] { return folder }
        let checkout = Checkout.root
        return checkout.appendingPathComponent(".ci/artifacts/inbox").path
    }

    @Test("GET / serves the page and its assets from the binary, same-origin only, with a Content-Security-Policy")
    func assets() async throws {
        try await withEmulator { emulator in
            let page = try await emulator.admin("/")
            #expect(page.status == 200 && page.header("content-type")?.hasPrefix("text/html") == true)
            let policy = try #require(page.header("content-security-policy"))
            #expect(policy.contains("default-src 'self'") && !policy.contains("unsafe-inline") && !policy.contains("http"))
            let html = String(decoding: page.body, as: UTF8.self)
            // Nothing from elsewhere: no absolute URL to another origin, no inline script or style.
            for outside in [#"src="http"#, #"href="http"#, #"src="//"#, #"href="//"#, "<style", " style=", "<script>"] {
                #expect(!html.contains(outside), "the page holds \(outside)")
            }
            #expect(html.contains(#"<meta name="apns-http2-port" content="\#(emulator.http2Port)">"#))
            for (asset, type) in [
                ("/inbox/inbox.js", "text/javascript"), ("/inbox/inbox.css", "text/css"), ("/inbox/icon.svg", "image/svg+xml"),
            ] {
                #expect(html.contains(asset), "\(asset) is linked")
                let answer = try await emulator.admin(asset)
                #expect(
                    answer.status == 200 && answer.header("content-type")?.hasPrefix(type) == true && !answer.body.isEmpty,
                    "\(asset)")
            }
            // The script is ES modules (type="module"): the entry imports the rest, each served as JavaScript.
            #expect(html.contains(#"<script type="module" src="/inbox/inbox.js">"#))
            let entry = String(decoding: try await emulator.admin("/inbox/inbox.js").body, as: UTF8.self)
            #expect(entry.contains(#"from "./core.js""#) && entry.contains(#"from "./list.js""#), "the entry imports the modules")
            for module in ["core.js", "list.js", "detail.js", "phone.js", "phone-screen.js", "route.js"] {
                let answer = try await emulator.admin("/inbox/\(module)")
                #expect(answer.status == 200 && answer.header("content-type")?.hasPrefix("text/javascript") == true, "\(module)")
            }
            #expect(try await emulator.admin("/inbox/missing.js").status == 404)
            #expect(try await emulator.admin("/", method: "POST", body: "{}").status == 405)
        }
    }

    @Test(
        "POST /api/v1/push sends through the HTTP/2 provider API: APNs' answer, journaled as http2; faults apply; bad documents are 400"
    )
    func push() async throws {
        try await withEmulator { emulator in
            let token = String(repeating: "cd", count: 32)
            let sent = try await emulator.adminObject(
                "/api/v1/push", method: "POST",
                body: #"{"token": "\#(token)", "topic": "com.example.app", "priority": 5, "payload": {"aps": {"alert": "Hi"}}}"#
            )
            #expect(sent["status"] as? Int == 200 && sent["reason"] is NSNull)
            let uniqueID = try #require(sent["uniqueId"] as? String)
            let item = try await emulator.adminObject("/api/v1/notifications/\(uniqueID)")
            #expect(
                item["source"] as? String == "http2" && item["priority"] as? Int == 5
                    && item["apnsId"] as? String == sent["apnsId"] as? String)
            // APNs' own refusals come back as they are: a payload that is not JSON, a bad priority.
            let broken = try await emulator.adminObject(
                "/api/v1/push", method: "POST", body: #"{"token": "\#(token)", "topic": "com.example.app", "payload": "{nope"}"#)
            #expect(
                broken["status"] as? Int == 400 && broken["reason"] as? String == "PayloadEmpty"
                    && (broken["detail"] as? String)?.contains("not a JSON object") == true, "\(broken)")
            let priority = try await emulator.adminObject(
                "/api/v1/push", method: "POST", body: #"{"token": "\#(token)", "priority": 7, "payload": {}}"#)
            #expect(priority["status"] as? Int == 400 && priority["reason"] as? String == "BadPriority")
            try await self.faultsAndMistakes(emulator, token: token)
        }
    }

    /// A fault applies to the admin push as to any provider's push; what cannot be sent is said before sending.
    private func faultsAndMistakes(_ emulator: RunningEmulator, token: String) async throws {
        // A fault applies to it as to any provider's push; a delay longer than the wait is 202.
        _ = try await emulator.adminObject(
            "/api/v1/faults", method: "POST",
            body: #"{"match": {"token": "\#(token)"}, "action": {"type": "respond", "reason": "Unregistered"}, "times": 1}"#,
            status: 201)
        let faulted = try await emulator.adminObject(
            "/api/v1/push", method: "POST", body: #"{"token": "\#(token)", "payload": {}}"#)
        #expect(
            faulted["status"] as? Int == 410 && faulted["reason"] as? String == "Unregistered" && faulted["timestamp"] is Int)
        // RFC 9113 section 8.2.1: a header value may not start or end with whitespace; said before sending.
        let padded = try await emulator.admin(
            "/api/v1/push", method: "POST", body: #"{"token": "\#(token)", "topic": "com.example.app ", "payload": {}}"#)
        #expect(
            padded.status == 400
                && String(decoding: padded.body, as: UTF8.self).contains("apns-topic must not start or end with a space"),
            "\(padded.body)")
        for body in [
            #"{"payload": {}}"#, #"{"token": "ab/cd", "payload": {}}"#, #"{"token": "ab", "payload": [1]}"#,
            #"{"token": "ab", "payload": {}, "colour": 1}"#, #"{"token": "ab", "topic": null, "payload": {}}"#,
        ] {
            #expect(try await emulator.admin("/api/v1/push", method: "POST", body: body).status == 400, "\(body)")
        }
    }

    @Test(
        "in headless Chromium: live inbox, detail, phone with actions, a response, a Live Activity card with its timeline, a fault from the page; no console errors"
    )
    func browser() async throws {
        let python = ProcessInfo.processInfo.environment["APNS_EMULATOR_PYTHON"] ?? "python3"
        let probe = try await Subprocess.run(python, ["-c", "import selenium"])
        try #require(probe.status == 0, "selenium is missing: python3 -m pip install selenium (\(probe.stderr))")
        let chromium = ProcessInfo.processInfo.environment["CHROMIUM"] ?? "/usr/bin/chromium"
        try #require(
            FileManager.default.isExecutableFile(atPath: chromium),
            "Chromium is missing: apt-get install chromium chromium-driver")
        let started = Date()
        try await withEmulator { emulator in
            let script = Checkout.thirdParty("inbox_browser.py")
            let run = try await Subprocess.run(
                "timeout",
                [
                    "180", python, script, "http://127.0.0.1:\(emulator.adminPort)", String(emulator.http2Port), emulator.caPath,
                    Self.screenshots,
                ])
            #expect(run.status == 0, "the browser test failed:\n\(run.stdout.suffix(4000))\n\(run.stderr.suffix(3000))")
            let surfaces = [
                "surfaces.png", "surface-watch-small.png", "surface-watch-compact.png", "surface-carplay-small.png",
                "surface-carplay-compact.png", "surface-mac-compact.png",
            ]
            let environments = ["environments-1400.png", "token-check-1400.png", "token-check-390.png"]
            let shots = ["inbox.png", "detail.png", "phone.png", "activity.png", "web-apps.png"] + surfaces + environments
            let stale = Self.notSaved(shots, since: started)
            #expect(stale.isEmpty, "not saved by this run: \(stale)")
        }
    }

    /// The screenshots of `shots` this run did not write: missing, or left by an earlier run
    /// (older than `since`, less a second for the file system's clock).
    static func notSaved(_ shots: [String], since: Date) -> [String] {
        shots.filter { shot in
            let attributes = try? FileManager.default.attributesOfItem(atPath: Self.screenshots + "/" + shot)
            guard let written = attributes?[.modificationDate] as? Date else { return true }
            return written < since.addingTimeInterval(-1)
        }
    }
}
