/// `config.mode`: video and audio, or an audio-only output.
public enum RecordingMode: String, APIEnum {
    case videoAndAudio = "video-and-audio"
    case audio
}
