import APNsCore

/// The admin API's JSON of the report card: `GET /api/v1/providers` and
/// `GET /api/v1/providers/<id>/report`.
public enum ProviderJSON {
    /// `{"items": [provider...]}`, the provider seen last first.
    public static func list(_ providers: [ProviderHistory]) -> [UInt8] {
        var writer = JSONWriter()
        writer.object { members in
            members.member("items") { $0.array(providers) { writer, history in Self.write(history, into: &writer) } }
        }
        return writer.bytes
    }

    /// `{"provider", "exam", "verdict", "checks": [{"id", "verdict", "evidence": {"summary",
    /// "apnsIds", "figures"}, "source"}]}`.
    public static func report(_ report: ProviderReport) -> [UInt8] {
        var writer = JSONWriter()
        writer.object { members in
            members.member("provider") { Self.write(report.provider, into: &$0) }
            members.member("exam") { $0.raw(report.exam ? "true" : "false") }
            members.member("verdict") { $0.string(report.failed.isEmpty ? "pass" : "fail") }
            members.member("checks") {
                $0.array(report.checks) { writer, check in
                    writer.object { fields in
                        fields.member("id") { $0.string(check.id) }
                        fields.member("verdict") { $0.string(check.verdict.rawValue) }
                        fields.member("evidence") { evidence in
                            evidence.object { items in
                                items.member("summary") { $0.string(check.summary) }
                                items.member("apnsIds") { $0.array(check.apnsIDs) { $0.string($1) } }
                                items.member("figures") { figures in
                                    figures.object { values in
                                        for figure in check.figures { values.member(figure.name) { $0.number(figure.value) } }
                                    }
                                }
                            }
                        }
                        fields.member("source") { $0.string(check.source) }
                    }
                }
            }
        }
        return writer.bytes
    }

    /// One provider: who it is and how much it sent.
    static func write(_ history: ProviderHistory, into writer: inout JSONWriter) {
        let identity = history.identity
        writer.object { fields in
            fields.member("id") { $0.string(identity.id) }
            fields.member("kind") { $0.string(identity.kind.rawValue) }
            fields.member("teamId") { $0.optionalString(identity.teamID) }
            fields.member("keyId") { $0.optionalString(identity.keyID) }
            fields.member("subject") { $0.optionalString(identity.subject) }
            fields.member("peer") { $0.optionalString(identity.peer) }
            fields.member("connections") { $0.number(history.connections.count) }
            fields.member("tokens") { $0.number(history.tokens.count) }
            fields.member("requests") { $0.number(history.requests) }
            fields.member("lastSeen") { $0.optionalString(history.lastSeen.map { Timestamp.rfc3339(millis: $0) }) }
        }
    }
}
