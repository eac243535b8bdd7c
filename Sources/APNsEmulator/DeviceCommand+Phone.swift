import APNsCore
import APNsDevice
import APNsDeviceClient
import APNsInspection
import Foundation

/// The phone side of `apns-emulator device`: the app's settings from the command line, each
/// notification printed with its presentation, and the user's actions typed on standard input.
extension DeviceCommand {
    /// Asks for authorization and sends the app's settings, as an app does at launch.
    func configureApp(_ client: DeviceClient, topic: String) async throws {
        if let authorize = self.authorize {
            let options = try Authorization.Options(list: authorize)
            let answer = try await client.requestAuthorization(topic: topic, options: options, userAllows: self.prompt == "allow")
            let saved = answer.authorization
            let allowed = [saved.alert ? "alert" : nil, saved.sound ? "sound" : nil, saved.badge ? "badge" : nil].compactMap {
                $0
            }
            sayError(
                "authorization: \(saved.status.rawValue)\(allowed.isEmpty ? "" : " (" + allowed.joined(separator: ", ") + ")")"
                    + (answer.prompted ? ", the user was asked" : ", as saved before")
            )
        }
        var document: [String: String] = [:]
        if let path = self.categoriesFile {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            document["categories"] = trimmed.hasPrefix("[") ? trimmed : try Self.member("categories", of: trimmed, in: path)
        }
        if let path = self.stringsFile { document["strings"] = try String(contentsOfFile: path, encoding: .utf8) }
        if let state = self.state { document["appState"] = "\"\(state)\"" }
        if let language = self.language { document["language"] = Self.quoted(language) }
        if let zone = self.timeZone { document["timeZone"] = Self.quoted(zone) }
        if self.serviceExtension != nil { document["serviceExtension"] = #"{"device": true}"# }
        if !document.isEmpty {
            let json = "{" + document.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}"
            _ = try await client.configure(topic: topic, document: Array(json.utf8))
        }
        if let path = self.activityTypesFile {
            let app = try await client.declareActivityTypes(
                topic: topic, document: Array(try String(contentsOfFile: path, encoding: .utf8).utf8))
            sayError(
                "activity types: \(app.activityTypes.keys.sorted().joined(separator: ", "))\(app.pushToStartToken.map { "; push-to-start token \($0)" } ?? "")"
            )
        }
        for path in self.scheduleFiles {
            for request in try Self.scheduleRequests(try String(contentsOfFile: path, encoding: .utf8), from: path) {
                try await Self.schedule(request, on: client, topic: topic)
            }
        }
    }

    /// The requests in a `--schedule` file or a typed `schedule`: one JSON object, or an array.
    static func scheduleRequests(_ text: String, from source: String) throws -> [[UInt8]] {
        guard let parsed = JSONValue.parse(Array(text.utf8)) else {
            throw DeviceCommandError(
                "\(source) is not JSON: a request {\"identifier\", \"content\", \"trigger\"} or an array of them")
        }
        let objects: [JSONValue]
        if case .array(let items) = parsed { objects = items } else { objects = [parsed] }
        return try objects.map { object in
            guard case .object = object else {
                throw DeviceCommandError("\(source): each request is a JSON object {\"identifier\", \"content\", \"trigger\"}")
            }
            return object.compact
        }
    }

    /// Schedules one request and prints what the phone keeps: `{"scheduled": {...}, "evicted": [...]}`.
    static func schedule(_ document: [UInt8], on client: DeviceClient, topic: String) async throws {
        let scheduled = try await client.schedule(topic: topic, document: document)
        say(
            #"{"scheduled":"# + PhoneJSON.encoded(scheduled.request) + #","evicted":"# + PhoneJSON.encoded(scheduled.evicted)
                + "}")
    }

    /// The member `name` of the JSON object in `text` (a file given as `{"categories": [...]}`).
    private static func member(_ name: String, of text: String, in path: String) throws -> String {
        guard let object = JSONValue.parse(Array(text.utf8)), case .object = object, let value = object[name] else {
            throw DeviceCommandError("\(path) must be a JSON array of categories, or an object with \"\(name)\"")
        }
        return String(decoding: value.compact, as: UTF8.self)
    }

    static func quoted(_ text: String) -> String {
        PhoneJSON.encoded(text)
    }

    /// A notification's line: the admin API's fields and, for a version-2 session, how the phone
    /// presented it.
    static func line(_ notification: APNsCore.Notification, _ presentation: Presentation?) -> String {
        let line = NotificationJSON.line(notification)
        guard let presentation, line.hasSuffix("}") else { return line }
        return String(line.dropLast()) + ",\"presentation\":" + PhoneJSON.encoded(presentation) + "}"
    }

    /// Carries out one typed command: `tap ID`, `action ID ACTION`, `text ID ACTION "reply"`,
    /// `dismiss ID`, `state foreground|background|notRunning`, `timezone ZONE`, `schedule JSON|FILE`,
    /// `pending`, `cancel ID|--all`. IDs may be shortened to a prefix of a unique id printed before.
    func perform(_ command: String, on client: DeviceClient, topic: String?, seen: [String]) async {
        let words = command.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let verb = words.first else { return }
        do {
            switch (verb, words.count) {
            case ("activities", 1), ("start", 2...), ("end", 2...):
                guard let topic else { throw DeviceCommandError("\(verb) needs --topic (the app)") }
                return try await self.performForActivities(verb, words, command, on: client, topic: topic)
            case ("state", 2), ("timezone", 2), ("schedule", 2...), ("pending", 1), ("cancel", 2):
                guard let topic else {
                    throw DeviceCommandError("\(verb) needs --topic (the app), or a notification printed first")
                }
                return try await self.performForApp(verb, words, command, on: client, topic: topic)
            case ("web-app", 2...):
                // web-app subscribe|list|unsubscribe|permission|show [JSON]: the device's web apps.
                let rest = words.dropFirst(2).joined(separator: " ")
                let answer = try await client.webApp(words[1], document: rest.isEmpty ? "{}" : rest)
                return say(#"{"webApp":"# + answer + "}")
            case ("power", 1...):
                // power, or power online=false lowPowerMode=true locked=true: the device's own state.
                let state = try await client.setPower(
                    online: try Self.flag(words, "online"), lowPowerMode: try Self.flag(words, "lowPowerMode"),
                    locked: try Self.flag(words, "locked"))
                return say(
                    #"{"power":{"online":\#(state.online),"lowPowerMode":\#(state.lowPowerMode),"locked":\#(state.locked)}}"#)
            case ("tap", 2), ("dismiss", 2), ("action", 3), ("text", 4...):
                break
            default:
                throw DeviceCommandError(
                    "commands: tap ID, action ID ACTION, text ID ACTION \"reply\", dismiss ID, state foreground|background|notRunning, "
                        + "timezone ZONE, schedule JSON|FILE, pending, cancel ID|--all, power [online=BOOL] [lowPowerMode=BOOL] [locked=BOOL], "
                        + "activities, start JSON|FILE, end ACTIVITY-ID [JSON], web-app subscribe|list|unsubscribe|permission|show [JSON]"
                )
            }
            let id = try Self.resolve(words[1], seen: seen)
            let response: UserResponse
            switch verb {
            case "tap": response = try await client.respond(to: id, action: NotificationAction.defaultIdentifier)
            case "dismiss": response = try await client.respond(to: id, action: NotificationAction.dismissIdentifier)
            case "action": response = try await client.respond(to: id, action: words[2])
            default:
                let reply = words.dropFirst(3).joined(separator: " ").trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
                response = try await client.respond(to: id, action: words[2], text: reply)
            }
            say(#"{"response":"# + PhoneJSON.encoded(response) + "}")
        } catch {
            sayError("\(command): \(error)")
        }
    }

    /// A typed command for the app itself: its state, the phone's time zone, local notifications.
    private func performForApp(
        _ verb: String, _ words: [String], _ command: String, on client: DeviceClient, topic: String
    ) async throws {
        switch verb {
        case "state":
            guard let state = AppState(rawValue: words[1]) else {
                throw DeviceCommandError("state is foreground, background or notRunning")
            }
            _ = try await client.setAppState(topic: topic, state)
            sayError("app state: \(state.rawValue)")
        case "timezone":
            let app = try await client.setTimeZone(topic: topic, words[1])
            sayError("time zone: \(app.timeZone)")
        case "schedule":
            let argument = command.drop { $0 == " " }.dropFirst(verb.count).trimmingCharacters(in: .whitespaces)
            let inline = argument.hasPrefix("{") || argument.hasPrefix("[")
            let text = inline ? argument : try String(contentsOfFile: argument, encoding: .utf8)
            for request in try Self.scheduleRequests(text, from: inline ? "schedule" : argument) {
                try await Self.schedule(request, on: client, topic: topic)
            }
        case "pending":
            say(#"{"pending":"# + PhoneJSON.encoded(try await client.pendingRequests(topic: topic)) + "}")
        default:
            let removed = try await client.cancelPending(topic: topic, identifier: words[1] == "--all" ? nil : words[1])
            say(#"{"cancelled":\#(removed)}"#)
        }
    }

    /// The value of `name=true|false` among a power command's words; nil when it is not there.
    static func flag(_ words: [String], _ name: String) throws -> Bool? {
        for word in words.dropFirst() {
            let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, ["online", "lowPowerMode", "locked"].contains(parts[0]) else {
                throw DeviceCommandError("power takes online=BOOL, lowPowerMode=BOOL and locked=BOOL, not \(word)")
            }
            guard parts[0] == name else { continue }
            guard let value = Bool(parts[1]) else { throw DeviceCommandError("\(name) is true or false, not \(parts[1])") }
            return value
        }
        return nil
    }

    /// The id a typed id stands for: itself, or the one of `seen` it begins (`none` says so
    /// when there is none, `%@` standing for what was typed).
    static func resolve(_ typed: String, seen: [String], none: String = "no notification %@ was printed") throws -> String {
        if seen.contains(typed) { return typed }
        let matches = seen.filter { $0.lowercased().hasPrefix(typed.lowercased()) }
        guard matches.count == 1, let match = matches.first else {
            throw DeviceCommandError(
                matches.isEmpty
                    ? none.replacingOccurrences(of: "%@", with: typed) : "\(typed) begins \(matches.count) ids; type more of it")
        }
        return match
    }
}

/// Prints a line on standard error (what is said about the session, not a notification).
func sayError(_ line: String) {
    try? FileHandle.standardError.write(contentsOf: Data((line + "\n").utf8))
}
