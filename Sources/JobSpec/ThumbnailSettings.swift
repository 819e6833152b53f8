/// `config.thumbnails`, Revue's addition: a JPEG of the composite every `intervalSeconds` of
/// media, `width` pixels wide (the height follows the picture), beside the recording; the
/// job's view links the latest (docs/JOBS.md, "Thumbnails").
public struct ThumbnailSettings: Sendable, Codable, Equatable {
    public var intervalSeconds: Double
    public var width: Int

    public static let intervalRange = 1.0...3600.0
    public static let widthRange = 64...1920

    public init(intervalSeconds: Double = 10, width: Int = 320) {
        self.intervalSeconds = intervalSeconds
        self.width = width
    }

    /// Checks a request's `config.thumbnails`; errors name the field.
    public init(validating value: JSONValue) throws(SpecError) {
        self.init()
        guard value.objectValue != nil else { throw SpecError("config.thumbnails must be an object") }
        if let interval = value["intervalSeconds"], !interval.isNull {
            guard let seconds = interval.numberValue, Self.intervalRange.contains(seconds) else {
                throw SpecError("config.thumbnails.intervalSeconds must be a number of seconds from 1 to 3600")
            }
            intervalSeconds = seconds
        }
        if let width = value["width"], !width.isNull {
            guard let pixels = width.integerValue, Self.widthRange.contains(pixels), pixels % 2 == 0 else {
                throw SpecError("config.thumbnails.width must be an even whole number of pixels from 64 to 1920")
            }
            self.width = pixels
        }
    }
}
