package ui

import (
	"bufio"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"navviz/internal/atomicfile"
)

// screenshotName returns a file name for a screenshot taken at t, in dir:
// navviz-YYYYMMDD-HHMMSS.png, or with -2, -3, … appended when exists says
// the name is taken.
func screenshotName(dir string, t time.Time, exists func(string) bool) string {
	base := "navviz-" + t.Format("20060102-150405")
	p := filepath.Join(dir, base+".png")
	for i := 2; exists(p) && i < 1000; i++ {
		p = filepath.Join(dir, fmt.Sprintf("%s-%d.png", base, i))
	}
	return p
}

// fileExists reports whether path names an existing file system entry.
func fileExists(path string) bool {
	_, err := os.Stat(path)
	return !errors.Is(err, fs.ErrNotExist)
}

// savePNG writes img to path as PNG through atomicfile.Write: an existing
// file is replaced only once the whole image was written, a failed write
// leaves no half file behind.
func savePNG(path string, img image.Image) error {
	err := atomicfile.Write(path, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<16)
		if err := png.Encode(bw, img); err != nil {
			return fmt.Errorf("encode: %w", err)
		}
		return bw.Flush()
	})
	if err != nil {
		return fmt.Errorf("ui: screenshot %s: %w", path, err)
	}
	return nil
}

// rgbaFromPixels wraps pixels read back from the GPU (premultiplied RGBA,
// 4 bytes per pixel, row-major) as an opaque image.RGBA of size w x h.
func rgbaFromPixels(pix []byte, w, h int) *image.RGBA {
	img := &image.RGBA{Pix: pix, Stride: 4 * w, Rect: image.Rect(0, 0, w, h)}
	for i := 3; i < len(pix); i += 4 {
		pix[i] = 0xff
	}
	return img
}
