/// `config.orientation`: portrait swaps the output's width and height.
public enum Orientation: String, APIEnum {
    case landscape, portrait
}
