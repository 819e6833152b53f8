import JobSpec

/// Reads the fields of one message object, each failure an `invalidParameter` error that names
/// the message type and the field (`pin.participantId must be a string`). A JSON `null` reads
/// as a missing field; fields nobody asks for are ignored (docs/SIGNALING.md, the version rule).
struct FieldReader {
    let type: String
    let object: [String: JSONValue]
    let requestID: RequestID?

    func failure(_ message: String, code: ErrorCode = .invalidParameter) -> SignalingError {
        SignalingError(code, "\(type).\(message)", requestID: requestID)
    }

    private func present(_ name: String) -> JSONValue? {
        guard let value = object[name], !value.isNull else { return nil }
        return value
    }

    func optionalString(_ name: String, maxLength: Int) throws(SignalingError) -> String? {
        guard let value = present(name) else { return nil }
        guard let text = value.stringValue else { throw failure("\(name) must be a string") }
        guard text.utf8.count <= maxLength * 4, text.count <= maxLength else {
            throw failure("\(name) must be at most \(maxLength) characters")
        }
        return text
    }

    func string(_ name: String, maxLength: Int) throws(SignalingError) -> String {
        guard let text = try optionalString(name, maxLength: maxLength) else { throw failure("\(name) is required") }
        return text
    }

    /// A participant or room id: 1 to 128 characters, none of them a control character.
    func optionalIdentifier(_ name: String) throws(SignalingError) -> String? {
        guard let text = try optionalString(name, maxLength: SignalingProtocol.maximumIdentifierLength) else { return nil }
        guard FieldReader.isIdentifier(text) else {
            throw failure("\(name) must be 1 to \(SignalingProtocol.maximumIdentifierLength) characters with no control characters")
        }
        return text
    }

    func identifier(_ name: String) throws(SignalingError) -> String {
        guard let text = try optionalIdentifier(name) else { throw failure("\(name) is required") }
        return text
    }

    static func isIdentifier(_ text: String) -> Bool {
        !text.isEmpty && text.count <= SignalingProtocol.maximumIdentifierLength
            && !text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    func optionalBool(_ name: String) throws(SignalingError) -> Bool? {
        guard let value = present(name) else { return nil }
        guard let flag = value.boolValue else { throw failure("\(name) must be true or false") }
        return flag
    }

    func bool(_ name: String) throws(SignalingError) -> Bool {
        guard let flag = try optionalBool(name) else { throw failure("\(name) is required") }
        return flag
    }

    func optionalInteger(_ name: String) throws(SignalingError) -> Int? {
        guard let value = present(name) else { return nil }
        guard let number = value.integerValue else { throw failure("\(name) must be a whole number") }
        return number
    }

    /// A number (integer or not).
    func number(_ name: String) throws(SignalingError) -> Double {
        guard let value = present(name) else { throw failure("\(name) is required") }
        guard let number = value.numberValue, number.isFinite else { throw failure("\(name) must be a number") }
        return number
    }

    func integer(_ name: String) throws(SignalingError) -> Int {
        guard let number = try optionalInteger(name) else { throw failure("\(name) is required") }
        return number
    }

    func optionalValue<Value: SignalingEnum>(_ name: String, as type: Value.Type,
                                             reading: (String) -> Value? = { Value(lenient: $0) }) throws(SignalingError) -> Value?
    {
        guard let value = present(name) else { return nil }
        guard let text = value.stringValue, let match = reading(text) else {
            throw failure("\(name) must be one of \(Value.allowedValues)")
        }
        return match
    }

    func value<Value: SignalingEnum>(_ name: String, as type: Value.Type) throws(SignalingError) -> Value {
        guard let match = try optionalValue(name, as: type) else { throw failure("\(name) is required (one of \(Value.allowedValues))") }
        return match
    }

    func optionalObject(_ name: String) throws(SignalingError) -> FieldReader? {
        guard let value = present(name) else { return nil }
        guard let members = value.objectValue else { throw failure("\(name) must be an object") }
        return FieldReader(type: "\(type).\(name)", object: members, requestID: requestID)
    }

    func object(_ name: String) throws(SignalingError) -> FieldReader {
        guard let reader = try optionalObject(name) else { throw failure("\(name) is required") }
        return reader
    }

    func optionalArray(_ name: String, maxCount: Int) throws(SignalingError) -> [JSONValue]? {
        guard let value = present(name) else { return nil }
        guard let items = value.arrayValue else { throw failure("\(name) must be a list") }
        guard items.count <= maxCount else { throw failure("\(name) must have at most \(maxCount) entries") }
        return items
    }

    func array(_ name: String, maxCount: Int) throws(SignalingError) -> [JSONValue] {
        guard let items = try optionalArray(name, maxCount: maxCount) else { throw failure("\(name) is required") }
        return items
    }

    /// The reader of element `index` of list `name`, which must be an object.
    func element(_ value: JSONValue, of name: String, at index: Int) throws(SignalingError) -> FieldReader {
        guard let members = value.objectValue else { throw failure("\(name)[\(index)] must be an object") }
        return FieldReader(type: "\(type).\(name)[\(index)]", object: members, requestID: requestID)
    }

    /// Any JSON value, bounded in size (`metaData`).
    func optionalJSON(_ name: String, maxBytes: Int) throws(SignalingError) -> JSONValue? {
        guard let value = present(name) else { return nil }
        guard value.text.utf8.count <= maxBytes else { throw failure("\(name) must be at most \(maxBytes) bytes of JSON") }
        return value
    }

    func raw(_ name: String) -> JSONValue? { present(name) }
}
