import APNsTestSupport
import Foundation
import Testing

/// curl, a real HTTP/2 client that knows nothing of the emulator, gets Apple's answers.
@Suite("curl as a provider")
struct ThirdPartyClientTests {
    static let token = String(repeating: "d4", count: 32)

    struct Answer {
        var httpVersion: String
        var status: Int
        var headers: [String: String]
        var body: String
        /// How many bytes of the body curl sent before the answer ended the request.
        var uploaded: Int
    }

    func curl(_ emulator: RunningEmulator, _ arguments: [String], path: String = "/3/device/\(token)") async throws -> Answer {
        let url = "https://localhost:\(emulator.http2Port)\(path)"
        let output = try await Subprocess.run(
            "curl",
            [
                "--silent", "--show-error", "--http2", "--cacert", emulator.caPath, "--dump-header", "-",
                "--write-out", "\n%{http_version} %{http_code} %{size_upload}",
            ] + arguments + [url]
        )
        try #require(output.status == 0, "curl failed: \(output.stderr)")
        var lines = output.stdout.components(separatedBy: "\r\n")
        let summary = (lines.last ?? "").split(separator: "\n").last.map(String.init) ?? ""
        let parts = summary.split(separator: " ")
        var headers: [String: String] = [:]
        lines.removeFirst()  // status line
        while let line = lines.first, !line.isEmpty {
            lines.removeFirst()
            if let colon = line.firstIndex(of: ":") {
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        let rest = lines.dropFirst().joined(separator: "\r\n")
        let body = rest.components(separatedBy: "\n").dropLast().joined(separator: "\n")
        return Answer(
            httpVersion: parts.first.map(String.init) ?? "",
            status: parts.count > 1 ? Int(parts[1]) ?? 0 : 0,
            headers: headers,
            body: body,
            uploaded: parts.count > 2 ? Int(parts[2]) ?? -1 : -1
        )
    }

    @Test("valid and invalid pushes from curl get APNs' statuses and reasons over HTTP/2")
    func curlPushes() async throws {
        try await withEmulator { emulator in
            let ok = try await self.curl(
                emulator,
                [
                    "-H", "apns-topic: com.example.app", "-H", "apns-push-type: alert",
                    "-H", "apns-id: 11111111-2222-3333-4444-555555555555", "-d", #"{"aps":{"alert":"from curl"}}"#,
                ])
            #expect(ok.httpVersion == "2")
            #expect(ok.status == 200)
            #expect(ok.headers["apns-id"] == "11111111-2222-3333-4444-555555555555")
            #expect(ok.headers["apns-unique-id"] != nil)
            #expect(ok.body.isEmpty)

            let priority = try await self.curl(emulator, ["-H", "apns-priority: 7", "-d", "{}"])
            #expect(priority.status == 400)
            #expect(priority.body == #"{"reason":"BadPriority"}"#)
            #expect(priority.headers["content-type"] == "application/json")

            let badToken = try await self.curl(emulator, ["-d", "{}"], path: "/3/device/123")
            #expect(badToken.status == 400)
            #expect(badToken.body == #"{"reason":"BadDeviceToken"}"#)

            let notJSON = try await self.curl(emulator, ["-d", "hello"])
            #expect(notJSON.status == 400)
            #expect(notJSON.body == #"{"reason":"PayloadEmpty"}"#)
            #expect(notJSON.headers["apns-emulator-detail"]?.contains("not a JSON object") == true)

            let big = emulator.directory.appending("big.json")
            try Data((#"{"a":""# + String(repeating: "x", count: 5000) + #""}"#).utf8).write(to: URL(fileURLWithPath: big))
            let tooLarge = try await self.curl(emulator, ["--data-binary", "@\(big)"])
            #expect(tooLarge.status == 413)
            #expect(tooLarge.body == #"{"reason":"PayloadTooLarge"}"#)

            let get = try await self.curl(emulator, [])
            #expect(get.status == 405)
            #expect(get.body == #"{"reason":"MethodNotAllowed"}"#)

            let items = try await emulator.queued(Self.token)
            #expect(items.count == 1)
            #expect(items.first?["apnsId"] as? String == "11111111-2222-3333-4444-555555555555")
        }
    }

    @Test(
        "a body far over the limit is answered 413 at once and the stream reset, on a connection that goes on serving (issue 13, item 3)"
    )
    func hugeBody() async throws {
        try await withEmulator { emulator in
            // 64 MiB: before, every byte was read (and the emulator answered only at the end).
            let huge = emulator.directory.appending("huge.json")
            try #require(FileManager.default.createFile(atPath: huge, contents: nil))
            let handle = try #require(FileHandle(forWritingAtPath: huge))
            try handle.write(contentsOf: Data(#"{"a":""#.utf8))
            let chunk = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
            for _ in 0..<64 { try handle.write(contentsOf: chunk) }
            try handle.write(contentsOf: Data(#""}"#.utf8))
            try handle.close()
            let started = ContinuousClock.now
            let tooLarge = try await self.curl(emulator, ["--data-binary", "@\(huge)"])
            #expect(tooLarge.status == 413)
            #expect(tooLarge.body == #"{"reason":"PayloadTooLarge"}"#)
            #expect(tooLarge.headers["apns-emulator-detail"]?.contains("no push type allows more than 5120") == true)
            // Answered before the body was read: curl stopped sending well short of its 64 MiB (the
            // old read-everything-then-413 took every byte).
            #expect(tooLarge.uploaded >= 0 && tooLarge.uploaded < 16 << 20, "curl sent \(tooLarge.uploaded) bytes")
            print("413 for a 64 MiB body after \(ContinuousClock.now - started), \(tooLarge.uploaded) bytes sent")
            // The emulator still serves, and stored nothing of it.
            let ok = try await self.curl(emulator, ["-H", "apns-topic: com.example.app", "-d", #"{"aps":{}}"#])
            #expect(ok.status == 200)
            #expect(try await emulator.queued(Self.token).count == 1)
        }
    }
}
