import JobSpec
@testable import RevueSDK
import Testing

/// The SDK's job configs are sent as the job spec's typed config, in its one JSON form, which
/// the server reads back to the same value.
@Suite struct RecordingConfigRequestTests {
    @Test func everySDKSpellingHasItsJobSpecValue() {
        for type in RevueSDK.LayoutType.allCases { #expect(JobSpec.LayoutType(apiValue: type.rawValue) != nil, "\(type)") }
        for priority in RevueSDK.LayoutPriority.allCases { #expect(JobSpec.LayoutPriority(apiValue: priority.rawValue) != nil, "\(priority)") }
        for theme in ConfigTheme.allCases { #expect(ThemeName(apiValue: theme.rawValue) != nil, "\(theme)") }
        for mode in ConfigMode.allCases { #expect(RecordingMode(apiValue: mode.rawValue) != nil, "\(mode)") }
        for quality in ConfigQuality.allCases { #expect(Quality(apiValue: quality.rawValue) != nil, "\(quality)") }
        for orientation in ConfigOrientation.allCases { #expect(Orientation(apiValue: orientation.rawValue) != nil, "\(orientation)") }
    }

    @Test func whatIsLeftOutIsTheServersDefault() throws {
        #expect(RevueSDK.RecordingConfig().request == JobSpec.RecordingConfig())
        #expect(try JobSpec.RecordingConfig(validating: RevueSDK.RecordingConfig().json, kind: .recording) == JobSpec.RecordingConfig())
    }

    @Test(arguments: RevueSDK.LayoutType.allCases)
    func theServerReadsBackWhatWasAskedFor(type: RevueSDK.LayoutType) throws {
        for (index, theme) in ConfigTheme.allCases.enumerated() {
            let asked = RevueSDK.RecordingConfig(layout: ConfigLayout(type: type, priority: index % 2 == 0 ? .PIN : .SPEAKER, gridSize: 2 + index),
                                                 theme: theme, mode: index % 2 == 0 ? .AUDIO : .VIDEO_AND_AUDIO,
                                                 quality: ConfigQuality.allCases[index % 3], orientation: index % 2 == 0 ? .portrait : .landscape)
            let read = try JobSpec.RecordingConfig(validating: asked.json, kind: .hls)
            #expect(read == asked.request)
            #expect(read.layout.type.rawValue == type.rawValue && read.theme.rawValue == theme.rawValue && read.layout.gridSize == 2 + index)
            #expect(read.mode == (index % 2 == 0 ? .audio : .videoAndAudio))
        }
    }

    @Test func aLivestreamAsksForItsRecording() throws {
        let config = LivestreamConfig(theme: .DARK, recording: LivestreamRecordingConfig(enabled: true))
        let read = try JobSpec.RecordingConfig(validating: config.json, kind: .livestream)
        #expect(read.alsoRecords && read.theme == .dark)
        #expect(try !JobSpec.RecordingConfig(validating: LivestreamConfig().json, kind: .livestream).alsoRecords)
    }
}
