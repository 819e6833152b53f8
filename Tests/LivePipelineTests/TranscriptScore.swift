import Speech
import TestSupport

/// How a transcript of a spoken conversation came out against the script: each heard segment
/// sorted to the line it is most like, the word error rate over the lines, and how many lines
/// were heard and attributed to their own speaker only. The lines heard wrong are printed.
struct TranscriptScore {
    let heard: [[TranscriptFile.Segment]]
    let wordErrorRate: Double
    let attributed: Int

    init(_ transcript: TranscriptFile, lines: [SpokenConversation.Line], names: [String]) {
        heard = SpokenConversation.sort(transcript.segments, text: \.text, into: lines)
        let pairs = zip(lines, heard).map { (reference: $0.text, hypothesis: $1.map(\.text).joined(separator: " ")) }
        attributed = zip(lines, heard).filter { line, segments in
            !segments.isEmpty && segments.allSatisfy { $0.participantName == names[line.speaker] }
        }.count
        wordErrorRate = WordErrorRate(pairs: pairs).rate
        for pair in pairs where WordErrorRate(reference: pair.reference, hypothesis: pair.hypothesis).errors > 0 {
            print("  said: \(pair.reference)\n  heard: \(pair.hypothesis)")
        }
    }
}
