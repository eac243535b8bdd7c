/// Durations as people write them in query strings and request bodies: `250ms`, `5s`, `1.5s`,
/// `90m`, `2h`, `3d`, or a bare number of seconds.
public enum DurationText {
    /// The duration `text` names, to the millisecond; nil when it is not one (or is negative).
    public static func parse(_ text: String) -> Duration? {
        let (number, scale): (Substring, Double) =
            if text.hasSuffix("ms") { (text.dropLast(2), 0.001) } else if text.hasSuffix("s") {
                (text.dropLast(), 1)
            } else if text.hasSuffix("m") { (text.dropLast(), 60) } else if text.hasSuffix("h") {
                (text.dropLast(), 3600)
            } else if text.hasSuffix("d") { (text.dropLast(), 86_400) } else { (Substring(text), 1) }
        guard let value = Double(number), value.isFinite, value >= 0, value * scale < 1e12 else { return nil }
        return .milliseconds(Int64((value * scale * 1000).rounded()))
    }

    /// `millis` as ``parse(_:)`` reads it back: whole seconds as `30s`, anything else as `1500ms`.
    public static func text(millis: Int64) -> String {
        millis % 1000 == 0 ? "\(millis / 1000)s" : "\(millis)ms"
    }
}
