package scenario

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// pngBomb returns a tiny PNG (1 pixel of data) whose header declares w x h
// pixels.
func pngBomb(t testing.TB, w, h int) []byte {
	t.Helper()
	data, err := EncodePNG(testPicture(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	// The IHDR chunk follows the 8-byte signature: length, "IHDR", width,
	// height, ..., then its CRC over the type and data.
	binary.BigEndian.PutUint32(data[16:], uint32(w))
	binary.BigEndian.PutUint32(data[20:], uint32(h))
	binary.BigEndian.PutUint32(data[29:], crc32.ChecksumIEEE(data[12:29]))
	return data
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestReadPNGBomb: a PNG declaring a picture over MaxShotPx a side is
// refused from its header, naming the size, without allocating it.
func TestReadPNGBomb(t *testing.T) {
	cases := []struct {
		name string
		w, h int
	}{{"40000 square", 40000, 40000}, {"wide", MaxShotPx + 1, 1}, {"tall", 1, MaxShotPx + 1}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bomb.png")
			if err := os.WriteFile(path, pngBomb(t, c.w, c.h), 0o644); err != nil {
				t.Fatal(err)
			}
			var err error
			n := allocated(func() { _, err = ReadPNG(path) })
			if err == nil || !strings.Contains(err.Error(), "bomb.png") || !strings.Contains(err.Error(), "8192") {
				t.Errorf("ReadPNG: %v, want an error naming the file and the %d-pixel side", err, MaxShotPx)
			}
			if n > 1<<20 {
				t.Errorf("ReadPNG allocated %d bytes", n)
			}
		})
	}
}

// TestCompareGoldensBomb: a golden of another size than its shot is not
// decoded: a tiny PNG declaring 8192x8192 costs no memory and fails the
// shot naming both sizes.
func TestCompareGoldensBomb(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.png"), pngBomb(t, MaxShotPx, MaxShotPx), 0o644); err != nil {
		t.Fatal(err)
	}
	var cmps []ShotCompare
	var err error
	n := allocated(func() {
		cmps, err = CompareGoldens([]Shot{{Name: "a", Image: testPicture(64, 48)}}, dir, t.TempDir(), DefaultThreshold, DefaultTolerancePct)
	})
	if err != nil {
		t.Fatal(err)
	}
	if !cmps[0].Failed || !strings.Contains(cmps[0].Problem, "64x48") || !strings.Contains(cmps[0].Problem, "8192x8192") {
		t.Errorf("compare with the bomb: %+v", cmps[0])
	}
	if n > 1<<20 {
		t.Errorf("CompareGoldens allocated %d bytes", n)
	}
}

// TestReadPNGLimit: a golden file over MaxPNGBytes (sparse) is refused
// before it is read.
func TestReadPNGLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.png")
	if err := os.WriteFile(path, pngBomb(t, 8, 8), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, MaxPNGBytes+1); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadPNG(path); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("ReadPNG of a file over the limit: %v", err)
	}
}

// FuzzReadPNG: the golden reader never panics, and what it returns has
// the size its header declares, within the bound.
func FuzzReadPNG(f *testing.F) {
	for _, img := range []image.Image{testPicture(1, 1), testPicture(17, 5), image.NewGray(image.Rect(0, 0, 3, 3)), image.NewPaletted(image.Rect(0, 0, 4, 2), color.Palette{color.Black, color.White})} {
		data, err := EncodePNG(img)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, 0)
		f.Add(data, 1)
	}
	f.Add(pngBomb(f, 40000, 40000), 0)
	f.Add(pngBomb(f, 64, 64), 1)
	const maxSide = 64 // small pictures only, so the fuzzer makes progress
	f.Fuzz(func(t *testing.T, data []byte, mode int) {
		open := func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
		var want *image.Point
		if mode%2 != 0 {
			want = &image.Point{17, 5}
		}
		img, err := decodePNG("fuzz.png", open, maxSide, want)
		if err != nil {
			if img != nil {
				t.Fatalf("a picture with the error %v", err)
			}
			return
		}
		s := img.Bounds().Size()
		if s.X < 1 || s.Y < 1 || s.X > maxSide || s.Y > maxSide || (want != nil && s != *want) {
			t.Fatalf("picture of %v (want %v, at most %d a side)", s, want, maxSide)
		}
	})
}
