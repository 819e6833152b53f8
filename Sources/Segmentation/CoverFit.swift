import Media

/// A background picture fitted to a camera's size the way a cover photo is: scaled to fill it,
/// the overflow cut evenly from both sides, never stretched.
public enum CoverFit {
    public static func fit(_ image: VideoFrame, width: Int, height: Int) -> VideoFrame {
        guard width > 0, height > 0 else { return image }
        if image.width == width && image.height == height { return image }
        // The largest part of the image, centred, with the camera's shape (even, for 4:2:0).
        let byWidth = image.width * height >= image.height * width
        let cropWidth = byWidth ? max(2, (image.height * width / height) & ~1) : image.width
        let cropHeight = byWidth ? image.height : max(2, (image.width * height / width) & ~1)
        let left = ((image.width - min(cropWidth, image.width)) / 2) & ~1
        let top = ((image.height - min(cropHeight, image.height)) / 2) & ~1
        let cropped = crop(image, left: left, top: top, width: min(cropWidth, image.width), height: min(cropHeight, image.height))
        let chromaWidth = (width + 1) / 2
        let chromaHeight = (height + 1) / 2
        let resize = { (plane: [UInt8], planeWidth: Int, planeHeight: Int, outWidth: Int, outHeight: Int) in
            Bilinear.resize(plane.map { UInt16($0) }, width: planeWidth, height: planeHeight, toWidth: outWidth, height: outHeight, as: UInt8.self)
        }
        return VideoFrame(width: width, height: height,
                          y: resize(cropped.y, cropped.width, cropped.height, width, height),
                          u: resize(cropped.u, cropped.chromaWidth, cropped.chromaHeight, chromaWidth, chromaHeight),
                          v: resize(cropped.v, cropped.chromaWidth, cropped.chromaHeight, chromaWidth, chromaHeight),
                          mediaTime: image.mediaTime)
    }

    /// The rectangle of `image` at an even `left`, `top`.
    static func crop(_ image: VideoFrame, left: Int, top: Int, width: Int, height: Int) -> VideoFrame {
        guard left != 0 || top != 0 || width != image.width || height != image.height else { return image }
        func rows(_ plane: [UInt8], _ stride: Int, _ x: Int, _ y: Int, _ w: Int, _ h: Int) -> [UInt8] {
            var out: [UInt8] = []
            out.reserveCapacity(w * h)
            for row in 0..<h {
                let start: Int = (y + row) * stride + x
                out.append(contentsOf: plane[start..<(start + w)])
            }
            return out
        }
        let chromaWidth = (width + 1) / 2
        let chromaHeight = (height + 1) / 2
        return VideoFrame(width: width, height: height, y: rows(image.y, image.width, left, top, width, height),
                          u: rows(image.u, image.chromaWidth, left / 2, top / 2, chromaWidth, chromaHeight),
                          v: rows(image.v, image.chromaWidth, left / 2, top / 2, chromaWidth, chromaHeight), mediaTime: image.mediaTime)
    }
}
