/// `config.quality`: low 854x480, med 1280x720, high 1920x1080 (docs/ENCODING.md).
public enum Quality: String, APIEnum {
    case low, med, high
}
