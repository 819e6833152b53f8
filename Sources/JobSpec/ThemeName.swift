/// `config.theme`: the colours of the composite (docs/LAYOUT.md).
public enum ThemeName: String, APIEnum {
    case dark = "DARK"
    case light = "LIGHT"
    case `default` = "DEFAULT"
}
