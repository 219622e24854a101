package scenario

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"

	"navviz/internal/atomicfile"
	"navviz/internal/readlimit"
)

// Defaults of the golden compare.
const (
	// DefaultThreshold: a pixel differs when a channel differs by more.
	DefaultThreshold = 8
	// DefaultTolerancePct: a shot fails when more than this percentage of
	// its pixels differ.
	DefaultTolerancePct = 0.1
)

// Diff is the comparison of a picture with its golden.
type Diff struct {
	// Differing counts the pixels where some channel (R, G, B or A, 8 bit,
	// non-premultiplied) differs by more than the threshold; Total is the
	// picture's pixel count.
	Differing, Total int
	// Box is the smallest rectangle holding every differing pixel (empty
	// when none differ).
	Box image.Rectangle
}

// Percent returns 100 * Differing / Total.
func (d *Diff) Percent() float64 {
	if d == nil || d.Total == 0 {
		return 0
	}
	return 100 * float64(d.Differing) / float64(d.Total)
}

// Fails reports whether more than tolerancePct percent of the pixels
// differ.
func (d *Diff) Fails(tolerancePct float64) bool { return d.Percent() > tolerancePct }

// nrgba returns img as non-premultiplied 8-bit RGBA.
func nrgba(img image.Image) *image.NRGBA {
	if n, ok := img.(*image.NRGBA); ok {
		return n
	}
	b := img.Bounds()
	n := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(n, n.Bounds(), img, b.Min, draw.Src)
	return n
}

// Compare compares got with want pixel by pixel: a pixel differs when any
// channel differs by more than threshold (0..255). Pictures of different
// sizes are an error naming both sizes.
func Compare(got, want image.Image, threshold int) (Diff, error) {
	gb, wb := got.Bounds(), want.Bounds()
	if gb.Dx() != wb.Dx() || gb.Dy() != wb.Dy() {
		return Diff{}, &SizeError{Got: gb.Size(), Golden: wb.Size()}
	}
	if threshold < 0 || threshold > 255 {
		return Diff{}, fmt.Errorf("threshold %d: want 0 to 255", threshold)
	}
	g, w := nrgba(got), nrgba(want)
	d := Diff{Total: gb.Dx() * gb.Dy()}
	for y := 0; y < gb.Dy(); y++ {
		for x := 0; x < gb.Dx(); x++ {
			if pixelDiffers(g, w, x, y, threshold) {
				d.Differing++
				d.Box = d.Box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return d, nil
}

func pixelDiffers(g, w *image.NRGBA, x, y, threshold int) bool {
	i, j := g.PixOffset(x, y), w.PixOffset(x, y)
	for k := 0; k < 4; k++ {
		if d := int(g.Pix[i+k]) - int(w.Pix[j+k]); d > threshold || -d > threshold {
			return true
		}
	}
	return false
}

// DiffColour marks the differing pixels of a difference picture.
var DiffColour = color.NRGBA{255, 0, 255, 255}

// DiffImage returns the difference picture of got against want (same
// sizes; threshold as Compare): got in grey dimmed to half, each differing
// pixel DiffColour.
func DiffImage(got, want image.Image, threshold int) *image.NRGBA {
	g, w := nrgba(got), nrgba(want)
	b := g.Bounds()
	out := image.NewNRGBA(b)
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			o := out.PixOffset(x, y)
			if x < w.Bounds().Dx() && y < w.Bounds().Dy() && pixelDiffers(g, w, x, y, threshold) {
				out.Pix[o], out.Pix[o+1], out.Pix[o+2], out.Pix[o+3] = DiffColour.R, DiffColour.G, DiffColour.B, DiffColour.A
				continue
			}
			i := g.PixOffset(x, y)
			// Rec. 601 luma in integers, halved.
			l := uint8((299*int(g.Pix[i]) + 587*int(g.Pix[i+1]) + 114*int(g.Pix[i+2])) / 2000)
			out.Pix[o], out.Pix[o+1], out.Pix[o+2], out.Pix[o+3] = l, l, l, 255
		}
	}
	return out
}

// EncodePNG returns img as PNG bytes.
func EncodePNG(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("encode PNG: %w", err)
	}
	return buf.Bytes(), nil
}

// SizeError is the error of a picture whose size differs from its
// golden's.
type SizeError struct {
	Got, Golden image.Point
}

func (e *SizeError) Error() string {
	if e == nil {
		return "<nil>"
	}
	return fmt.Sprintf("size %dx%d differs from the golden's %dx%d", e.Got.X, e.Got.Y, e.Golden.X, e.Golden.Y)
}

// MaxPNGBytes bounds a golden PNG file: a MaxShotPx-square picture of
// 8-bit RGBA (what EncodePNG writes) stored without compression, 256 MiB,
// with 16 MiB of room for the row filter bytes and the framing of the
// chunks and of deflate. The file is streamed, so the bound costs no
// memory.
const MaxPNGBytes = 4*MaxShotPx*MaxShotPx + 16<<20

// ReadPNG reads a golden PNG file of at most MaxPNGBytes. Its header is
// read first (png.DecodeConfig): a picture declaring more than MaxShotPx
// pixels a side is refused before anything is allocated for it.
func ReadPNG(path string) (image.Image, error) {
	return readPNG(path, nil)
}

// readPNG reads the PNG at path as ReadPNG does; when want is given, a
// picture of another size is not decoded: the error is a *SizeError.
func readPNG(path string, want *image.Point) (image.Image, error) {
	open := func() (io.ReadCloser, error) { return readlimit.Open(path, "golden PNG", MaxPNGBytes) }
	return decodePNG(path, open, MaxShotPx, want)
}

// decodePNG decodes the PNG that open gives (name names it in errors),
// opened twice: for its header, then, when the header declares at most
// maxSide pixels a side (and want's size, when given: else a *SizeError),
// for the picture.
func decodePNG(name string, open func() (io.ReadCloser, error), maxSide int, want *image.Point) (image.Image, error) {
	decode := func(f func(io.Reader) error) error {
		r, err := open()
		if err != nil {
			return err
		}
		defer r.Close()
		return f(r)
	}
	var cfg image.Config
	if err := decode(func(r io.Reader) (err error) { cfg, err = png.DecodeConfig(r); return err }); err != nil {
		return nil, fmt.Errorf("decode %s: %w", name, err)
	}
	size := image.Pt(cfg.Width, cfg.Height)
	switch {
	case size.X < 1 || size.Y < 1 || size.X > maxSide || size.Y > maxSide:
		return nil, fmt.Errorf("%s: the PNG declares %dx%d pixels: want 1 to %d a side", name, size.X, size.Y, maxSide)
	case want != nil && size != *want:
		return nil, &SizeError{Got: *want, Golden: size}
	}
	var img image.Image
	if err := decode(func(r io.Reader) (err error) { img, err = png.Decode(r); return err }); err != nil {
		return nil, fmt.Errorf("decode %s: %w", name, err)
	}
	return img, nil
}

// writeFile writes data to path atomically (internal/atomicfile: a
// temporary file renamed into place, so path is never partly written).
func writeFile(path string, data []byte) error {
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
