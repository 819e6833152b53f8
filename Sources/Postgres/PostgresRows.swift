/// The rows a statement returned, copied out of libpq's `PGresult` in text format.
public struct PostgresRows: Sendable, Sequence {
    /// Column names, in order.
    public let columns: [String]
    /// Each row's values as text; nil is SQL NULL.
    let values: [[String?]]
    /// The row count from the command tag, for INSERT, UPDATE and DELETE.
    public let affectedRows: Int

    public var count: Int { values.count }
    public var isEmpty: Bool { values.isEmpty }
    public var first: PostgresRow? { values.isEmpty ? nil : self[0] }

    public subscript(index: Int) -> PostgresRow {
        PostgresRow(columns: columns, values: values[index])
    }

    public func makeIterator() -> AnyIterator<PostgresRow> {
        var index = 0
        return AnyIterator {
            guard index < values.count else { return nil }
            defer { index += 1 }
            return self[index]
        }
    }
}

/// One row of a result. Values are decoded by column name into the type the caller asks for.
public struct PostgresRow: Sendable {
    public let columns: [String]
    let values: [String?]

    /// The raw text of a column, or nil for NULL. Throws when there is no such column.
    public func text(_ column: String) throws(PostgresError) -> String? {
        guard let index = columns.firstIndex(of: column) else {
            throw PostgresError(kind: .decodingFailed,
                                message: "no column \"\(column)\" in the result (columns: \(columns.joined(separator: ", ")))")
        }
        return values[index]
    }

    /// Decodes a non-NULL column. Throws on NULL, on a missing column, or when the text does not
    /// parse as `T`.
    public func decode<T: PostgresDecodable>(_ column: String, as type: T.Type = T.self) throws(PostgresError) -> T {
        guard let text = try text(column) else {
            throw PostgresError(kind: .decodingFailed, message: "column \"\(column)\" is NULL, expected \(T.self)")
        }
        return try T(postgresText: text)
    }

    /// Decodes a column that may be NULL.
    public func decodeIfPresent<T: PostgresDecodable>(_ column: String, as type: T.Type = T.self) throws(PostgresError) -> T? {
        guard let text = try text(column) else { return nil }
        return try T(postgresText: text)
    }
}
