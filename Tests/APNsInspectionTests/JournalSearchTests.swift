import APNsCore
import Foundation
import Testing

@testable import APNsInspection

/// `q` as a person types a mail client's search (issue 70; Mailpit's grammar: words AND-ed,
/// "quoted phrases", -exclusions, field:value), over the ring and the archive alike.
@Suite("The journal's search grammar")
struct JournalSearchTests {
    static func filter(_ q: String) throws -> JournalFilter {
        let encoded = q.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? q
        return try JournalFilter.parse(QueryParameters(uri: "/api/v1/notifications?q=\(encoded)"))
    }

    @Test("words, quoted phrases, exclusions and known fields; a colon after another name is part of a word")
    func terms() {
        let search = JournalSearch(#"Alice lunch "big day" -spam -"out of office" status:rejected token:AB https://x.example/"#)
        let read = search.terms.map { "\($0.excluded ? "-" : "")\($0.field.map { "\($0):" } ?? "")\($0.value)" }
        #expect(
            read == [
                "Alice", "lunch", "big day", "-spam", "-out of office", "status:rejected", "token:AB", "https://x.example/",
            ])
    }

    @Test("a field's value it cannot take is an error naming the field and what it takes")
    func badValues() {
        for (q, says) in [
            ("status:bogus", "status: takes one of"), ("is:loud", "is: takes quiet or warning"), ("before:soon", "RFC 3339"),
            ("outcome:", "a value"),
        ] {
            #expect(throws: InspectionError.self, "\(q)") { try Self.filter(q) }
            let message = (try? Self.filter(q)) == nil ? (Self.error(q) ?? "") : ""
            #expect(message.contains(says), "\(q): \(message)")
        }
    }

    static func error(_ q: String) -> String? {
        do {
            _ = try Self.filter(q)
            return nil
        } catch let error as InspectionError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    /// The journal of JournalArchiveTests (a ring of 3, the rest archived): payload `{"n":N}`,
    /// topic odd or even, received at 1000 + N.
    @Test("over the archive: words AND-ed, exclusions, fields, times and a token's start count as the entries say")
    func overTheArchive() throws {
        let (journal, _) = JournalArchiveTests.journal(1000)
        let payload = { (n: Int) in #"{"n":\#(n)}"# }
        func expect(_ q: String, _ wanted: (Int) -> Bool, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let page = journal.page(matching: try Self.filter(q), limit: 1000, before: nil)
            let expected = (1...1000).filter(wanted).reversed().map { "unique-\($0)" }
            #expect(page.total == expected.count, "\(q)", sourceLocation: sourceLocation)
            #expect(page.items.map(\.uniqueID) == expected, "\(q)", sourceLocation: sourceLocation)
        }
        try expect(#""n":1 "n":10"#) { payload($0).contains(#""n":1"#) && payload($0).contains(#""n":10"#) }
        try expect(#""n":7 topic:odd -"n":77"#) {
            payload($0).contains(#""n":7"#) && !$0.isMultiple(of: 2) && !payload($0).contains(#""n":77"#)
        }
        try expect("-topic:odd after:1990 before:1995") { $0.isMultiple(of: 2) && 1000 + $0 >= 1990 && 1000 + $0 < 1995 }
        try expect("token:cdcd status:queued") { _ in true }
        try expect("token:ee") { _ in false }
        try expect("status:rejected") { _ in false }
        // A parameter and the search disagreeing match nothing.
        let both = try JournalFilter.parse(QueryParameters(uri: "/api/v1/notifications?topic=even&q=topic:odd"))
        #expect(journal.page(matching: both, limit: 10, before: nil).total == 0)
    }
}
