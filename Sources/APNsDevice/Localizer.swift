/// Resolves a payload's localisation keys in the app's strings, as iOS does when it shows the
/// notification (so in the language the phone has then, not when the notification was sent).
public struct Localizer: Sendable {
    public let strings: [String: [String: String]]
    public let language: String

    public init(strings: [String: [String: String]], language: String) {
        self.strings = strings
        self.language = language
    }

    /// The format for `key`: in the phone's language, else its base language (`fr` for
    /// `fr-CA`); nil when the app has neither.
    public func format(for key: String) -> String? {
        if let format = self.strings[self.language]?[key] { return format }
        let base = self.language.split(separator: "-").first.map(String.init) ?? self.language
        return self.strings[base]?[key]
    }

    /// `key` resolved and filled with `arguments`; a missing key is shown as the key itself.
    public func text(key: String, arguments: [String], field: String) -> (text: String, localized: LocalizedText) {
        guard let format = self.format(for: key) else {
            return (key, LocalizedText(field: field, key: key, language: self.language, found: false))
        }
        return (Self.fill(format, arguments), LocalizedText(field: field, key: key, language: self.language, found: true))
    }

    /// Replaces `%@` (the next argument) and `%n$@` (argument n) in `format`; `%%` is a percent
    /// sign. A specifier with no argument left stands for an empty string.
    public static func fill(_ format: String, _ arguments: [String]) -> String {
        var output = ""
        var next = 0
        var characters = Array(format)[...]
        while let character = characters.popFirst() {
            guard character == "%" else {
                output.append(character)
                continue
            }
            if characters.first == "%" {
                characters.removeFirst()
                output.append("%")
            } else if characters.first == "@" {
                characters.removeFirst()
                output += next < arguments.count ? arguments[next] : ""
                next += 1
            } else if let dollar = characters.firstIndex(of: "$"), let position = Int(String(characters[..<dollar])),
                characters.index(after: dollar) < characters.endIndex, characters[characters.index(after: dollar)] == "@"
            {
                characters = characters[characters.index(dollar, offsetBy: 2)...]
                output += position >= 1 && position <= arguments.count ? arguments[position - 1] : ""
            } else {
                output.append(character)
            }
        }
        return output
    }
}
