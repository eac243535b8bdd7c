import Foundation

/// `PUT /api/v1/devices/<device id>/focus`: `{"active": "Work", "allowedApps": ["<topic>"],
/// "timeSensitive": true, "filters": {"<topic>": ["<filter-criteria>"]}}`, or `{"active": null}` to end the Focus.
public struct FocusDocument: Decodable, Sendable {
    /// The Focus turned on; nil when the document ends it.
    public let focus: Focus?

    public static let example = #"{"active": "Work", "allowedApps": ["com.example.app"], "timeSensitive": true}"#

    private enum CodingKeys: String, CodingKey, CaseIterable { case active, allowedApps, timeSensitive, filters, allowedPeople }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknown(CodingKeys.self, in: "a Focus")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard container.contains(.active) else {
            throw DeviceModelError(.invalid, field: "active", "active is the Focus's name (Work, Sleep, ...), or null to end it")
        }
        // Every member is checked, even when the document ends the Focus.
        // A member given is of its type: null is not a list of apps nor a switch.
        let allowed = container.contains(.allowedApps) ? try container.decode([String].self, forKey: .allowedApps) : []
        if allowed.contains(where: { $0.isEmpty }) {
            throw DeviceModelError(.invalid, field: "allowedApps", "allowedApps holds apps' bundle ids (topics); one is empty")
        }
        let timeSensitive = container.contains(.timeSensitive) ? try container.decode(Bool.self, forKey: .timeSensitive) : true
        let filters = container.contains(.filters) ? try container.decode([String: [String]].self, forKey: .filters) : [:]
        let people = container.contains(.allowedPeople) ? try container.decode([String].self, forKey: .allowedPeople) : []
        if people.contains(where: { $0.isEmpty }) {
            throw DeviceModelError(
                .invalid, field: "allowedPeople",
                "allowedPeople holds the handles of people whose messages break through; one is empty")
        }
        if filters.keys.contains(where: { $0.isEmpty }) || filters.values.contains(where: { $0.contains("") }) {
            throw DeviceModelError(
                .invalid, field: "filters",
                "filters maps an app's bundle id (topic) to the filter-criteria its Focus filter lets through; one is empty")
        }
        guard let name = try container.decodeIfPresent(String.self, forKey: .active) else {
            self.focus = nil
            return
        }
        guard !name.isEmpty, name.utf8.count <= 64 else {
            throw DeviceModelError(.invalid, field: "active", "active is the Focus's name, 1 to 64 bytes, or null to end it")
        }
        self.focus = Focus(
            name: name, allowedApps: allowed, timeSensitive: timeSensitive, filters: filters, allowedPeople: people)
    }
}
