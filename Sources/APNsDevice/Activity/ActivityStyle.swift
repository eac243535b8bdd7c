/// ActivityKit's `ActivityStyle` (iOS 18's `request(...style:)`), by its names. Apple documents
/// the two cases and no more; the emulator's reading, a choice named in the README: a
/// `transient` activity is shown in the Dynamic Island and on paired surfaces while it runs and
/// leaves the Lock Screen as soon as it ends (dismissed at once), where a `standard` one stays
/// up to four hours.
public enum ActivityStyle: String, Codable, Hashable, Sendable, CaseIterable {
    case standard, transient
}
