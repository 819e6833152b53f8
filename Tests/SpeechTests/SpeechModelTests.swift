import Testing

@testable import Speech

@Suite struct SpeechModelTests {
    @Test func theDefaultAndItsAliases() throws {
        #expect(try SpeechModel.resolve(modelId: nil, modelConfig: nil).id == "whisper-tiny.en")
        #expect(try SpeechModel.resolve(modelId: "tiny.en", modelConfig: "{}").id == "whisper-tiny.en")
        #expect(try SpeechModel.resolve(modelId: " ", modelConfig: "null").settings == WhisperSettings())
    }

    @Test func anUnknownModelIsRefusedAndNamesTheKnownOne() {
        #expect(throws: SpeechError(.badConfiguration, #"unknown modelId "whisper-large"; Revue has: whisper-tiny.en, pocketsphinx-en-us"#)) {
            try SpeechModel.resolve(modelId: "whisper-large", modelConfig: nil)
        }
    }

    /// The fallback is asked for by name, and takes no settings (refused, not ignored).
    @Test func pocketSphinxIsChosenByNameAndTakesNoSettings() throws {
        #expect(try SpeechModel.resolve(modelId: "pocketsphinx-en-us", modelConfig: nil).engine == .pocketSphinx)
        #expect(try SpeechModel.resolve(modelId: "PocketSphinx", modelConfig: "{}").id == "pocketsphinx-en-us")
        #expect(throws: SpeechError(.badConfiguration, "modelConfig: pocketsphinx-en-us takes no settings (it has beamSize)")) {
            try SpeechModel.resolve(modelId: "pocketsphinx-en-us", modelConfig: #"{"beamSize": 5}"#)
        }
    }

    @Test func aModelConfigMustBeAJSONObjectOfKnownSettings() {
        for (config, message) in [("not json", "modelConfig is not JSON"), ("[1]", "modelConfig must be a JSON object"),
                                  (#"{"beamSize": 9}"#, "modelConfig.beamSize must be an integer from 1 to 5"),
                                  (#"{"beamSize": true}"#, "modelConfig.beamSize must be an integer from 1 to 5"),
                                  (#"{"language": "fr"}"#, #"modelConfig.language: whisper-tiny.en speaks only "en""#),
                                  (#"{"temprature": 0.2}"#, #"modelConfig has an unknown setting "temprature"; known: language, beamSize, initialPrompt, temperature, threads, wordTimestamps"#)]
        {
            #expect(throws: SpeechError(.badConfiguration, message)) { try SpeechModel.resolve(modelId: nil, modelConfig: config) }
        }
    }

    @Test func knownSettingsPassThroughToTheHelper() throws {
        let model = try SpeechModel.resolve(modelId: nil, modelConfig: #"{"beamSize": 5, "initialPrompt": "Revue, SFU", "threads": 2, "temperature": 0}"#)
        #expect(model.settings.beamSize == 5)
        #expect(model.settings.threads == 2)
        let argument = model.settings.helperArgument(modelPath: "/m")
        #expect(argument == #"{"beamSize":5,"initialPrompt":"Revue, SFU","language":"en","model":"tiny.en","modelPath":"\/m","temperature":0,"threads":2,"wordTimestamps":true}"#)
    }
}

extension SpeechModelTests {
    @Test func numbersAndBooleansAreNotMistakenForEachOther() throws {
        #expect(try SpeechModel.resolve(modelId: nil, modelConfig: #"{"beamSize": 1, "temperature": 1, "wordTimestamps": false}"#).settings.beamSize == 1)
        #expect(throws: SpeechError.self) { try SpeechModel.resolve(modelId: nil, modelConfig: #"{"wordTimestamps": 1}"#) }
        #expect(throws: SpeechError.self) { try SpeechModel.resolve(modelId: nil, modelConfig: #"{"temperature": false}"#) }
    }
}
