import Foundation

/// Speech for the transcription tests: sentences spoken by espeak-ng (Debian) in different
/// voices, laid out on each speaker's own track with known times, as a room's participants would
/// say them. What was said and when is known exactly, so word error rates and times can be
/// checked.
public enum SpokenConversation {
    /// Thirty-two sentences of a meeting, written for these tests.
    public static let sentences = [
        "Good morning everyone, thank you for joining the call today.",
        "Let us start with the budget for the next quarter.",
        "The marketing team needs two more people by the end of March.",
        "I think we should delay the launch by one week.",
        "The new office opens on the first of June.",
        "Please send me the report before noon on Friday.",
        "Our customers asked for a dark mode in the mobile app.",
        "The servers were slow last night because of a database backup.",
        "We fixed the login problem on Tuesday afternoon.",
        "Sales in Europe grew faster than we expected.",
        "Can everyone hear me clearly now?",
        "The train to the airport leaves every twenty minutes.",
        "I will share my screen and show you the design.",
        "The blue button should be larger and easier to find.",
        "We need to hire a new engineer for the video team.",
        "The meeting with the lawyers is moved to Thursday morning.",
        "Our goal is to reduce the cost of storage by half.",
        "The weather was cold and windy during the conference.",
        "I agree with the plan, but we need more time for testing.",
        "The recording will be available to everyone after the call.",
        "Please write down your questions and send them to the group.",
        "The children played football in the park until sunset.",
        "We should review the contract before we sign it.",
        "The kitchen on the third floor is closed for repairs.",
        "Let us take a short break and come back in ten minutes.",
        "The printer in the hallway is out of paper again.",
        "Thank you all for your hard work this month.",
        "The next release will support five new languages.",
        "She bought fresh bread and coffee at the market.",
        "Our team won the award for the best new product.",
        "I have a question about the travel budget.",
        "That is all for today, see you next week.",
    ]

    /// The sentences as a person translates them into Spanish, to score machine translation
    /// against (ApertiumEngineTests).
    public static let spanish = [
        "Buenos días a todos, gracias por unirse a la llamada de hoy.",
        "Empecemos con el presupuesto del próximo trimestre.",
        "El equipo de marketing necesita dos personas más para finales de marzo.",
        "Creo que deberíamos retrasar el lanzamiento una semana.",
        "La nueva oficina abre el uno de junio.",
        "Por favor, envíame el informe antes del mediodía del viernes.",
        "Nuestros clientes pidieron un modo oscuro en la aplicación móvil.",
        "Los servidores fueron lentos anoche por una copia de seguridad de la base de datos.",
        "Arreglamos el problema de inicio de sesión el martes por la tarde.",
        "Las ventas en Europa crecieron más rápido de lo que esperábamos.",
        "¿Todos me oyen bien ahora?",
        "El tren al aeropuerto sale cada veinte minutos.",
        "Compartiré mi pantalla y os mostraré el diseño.",
        "El botón azul debería ser más grande y más fácil de encontrar.",
        "Necesitamos contratar a un nuevo ingeniero para el equipo de vídeo.",
        "La reunión con los abogados se ha trasladado al jueves por la mañana.",
        "Nuestro objetivo es reducir el coste del almacenamiento a la mitad.",
        "El tiempo fue frío y ventoso durante la conferencia.",
        "Estoy de acuerdo con el plan, pero necesitamos más tiempo para las pruebas.",
        "La grabación estará disponible para todos después de la llamada.",
        "Por favor, escribid vuestras preguntas y enviadlas al grupo.",
        "Los niños jugaron al fútbol en el parque hasta la puesta de sol.",
        "Deberíamos revisar el contrato antes de firmarlo.",
        "La cocina de la tercera planta está cerrada por reparaciones.",
        "Tomemos un breve descanso y volvamos en diez minutos.",
        "La impresora del pasillo se ha quedado otra vez sin papel.",
        "Gracias a todos por vuestro duro trabajo este mes.",
        "La próxima versión admitirá cinco idiomas nuevos.",
        "Ella compró pan fresco y café en el mercado.",
        "Nuestro equipo ganó el premio al mejor producto nuevo.",
        "Tengo una pregunta sobre el presupuesto de viajes.",
        "Eso es todo por hoy, nos vemos la semana que viene.",
    ]

    /// espeak-ng voices that sound like different people.
    public static let voices = ["en-us", "en-gb+m3", "en-us+f3"]

    /// One sentence as it was laid out: who said it, and when on the track's clock (the first
    /// sample louder than the background, so times mean when the voice starts).
    public struct Line: Sendable {
        public var speaker: Int
        public var text: String
        public var start: Double
        public var end: Double
    }

    /// Speaks `text` in `voice`, mono 16 kHz.
    public static func speak(_ text: String, voice: String) throws -> [Float] {
        let directory = try TemporaryDirectory(prefix: "speak")
        let wav = directory.file("said.wav"), raw = directory.file("said.f32")
        let spoken = try Tool.run("espeak-ng", ["-v", voice, "-s", "160", "-w", wav, text])
        guard spoken.status == 0 else { throw ToolError("espeak-ng failed: \(spoken.standardError)") }
        let converted = try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-i", wav, "-ac", "1", "-ar", "16000", "-f", "f32le", "-y", raw])
        guard converted.status == 0, let data = FileManager.default.contents(atPath: raw) else {
            throw ToolError("ffmpeg could not convert espeak's speech: \(converted.standardError)")
        }
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// Lays `turns` (speaker, sentence) out on `speakers` tracks: each turn starts `gap` seconds
    /// after the previous one ended (a negative gap overlaps them; `gaps`, when given, is each
    /// turn's own). Returns the tracks (16 kHz, the same length, silence where a speaker is
    /// quiet) and the lines with their times.
    public static func layOut(_ turns: [(speaker: Int, text: String)], speakers: Int, gap: Double, gaps: [Double]? = nil,
                              lead: Double = 0.6) throws -> (tracks: [[Float]], lines: [Line])
    {
        var tracks = Array(repeating: [Float](), count: speakers)
        var lines: [Line] = []
        var cursor = Int(lead * 16_000)
        for (index, (speaker, text)) in turns.enumerated() {
            let speech = try speak(text, voice: voices[speaker % voices.count])
            let first = speech.firstIndex { abs($0) > 0.01 } ?? 0
            let last = speech.lastIndex { abs($0) > 0.01 } ?? speech.count
            let start = max(0, cursor - first)
            if tracks[speaker].count < start { tracks[speaker] += [Float](repeating: 0, count: start - tracks[speaker].count) }
            let overlapping = tracks[speaker].count - start
            if overlapping > 0 { tracks[speaker].removeLast(overlapping) }
            tracks[speaker] += speech
            lines.append(Line(speaker: speaker, text: text, start: Double(start + first) / 16_000, end: Double(start + last) / 16_000))
            let pause = gaps.flatMap { index < $0.count ? $0[index] : nil } ?? gap
            cursor = start + last + Int(pause * 16_000)
        }
        let length = (tracks.map(\.count).max() ?? 0) + 16_000
        for index in tracks.indices { tracks[index] += [Float](repeating: 0, count: length - tracks[index].count) }
        return (tracks, lines)
    }

    /// Writes a 16 kHz mono track as a 16-bit WAV file.
    public static func writeWAV(_ samples: [Float], to path: String) throws {
        var bytes = wavHeader(samples: samples.count)
        for sample in samples {
            withUnsafeBytes(of: pcm16(sample).littleEndian) { bytes += $0 }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// The 44-byte header of a 16 kHz mono 16-bit WAV file of `samples` samples.
    public static func wavHeader(samples: Int) -> [UInt8] {
        var bytes = [UInt8]()
        func append32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        func append16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        bytes += Array("RIFF".utf8)
        append32(UInt32(36 + samples * 2))
        bytes += Array("WAVEfmt ".utf8)
        append32(16)
        append16(1)
        append16(1)
        append32(16_000)
        append32(32_000)
        append16(2)
        append16(16)
        bytes += Array("data".utf8)
        append32(UInt32(samples * 2))
        return bytes
    }

    /// A sample in [-1, 1] as 16-bit PCM.
    public static func pcm16(_ sample: Float) -> Int16 {
        Int16(max(-32_768, min(32_767, (sample * 32_767).rounded())))
    }
}
