package level

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"navviz/core/geom"
)

// SharedLevelMissing is leveltest.Missing, set by leveltest_test.go (an
// external test file: leveltest imports level, so this package's own test
// files cannot import it).
var SharedLevelMissing func(tb testing.TB, what string, err error)

// sharedLevel returns the path of ../shared/levels/NAME.obj (relative to the
// repository root); when the folder is absent the test is skipped, or
// fails under leveltest.RequireEnv (leveltest.Missing).
func sharedLevel(tb testing.TB, name string) string {
	tb.Helper()
	dir := filepath.Join("..", "..", "..", "shared", "levels")
	if _, err := os.Stat(dir); err != nil {
		SharedLevelMissing(tb, "shared test levels folder "+dir, err)
	}
	return filepath.Join(dir, name+".obj")
}

func TestReadOBJCube(t *testing.T) {
	s, err := LoadOBJ(filepath.Join("testdata", "cube.obj"))
	if err != nil {
		t.Fatal(err)
	}
	wantVerts := []geom.Vec3{
		{X: -1, Y: -1, Z: -1}, {X: 1, Y: -1, Z: -1}, {X: 1, Y: 1, Z: -1}, {X: -1, Y: 1, Z: -1},
		{X: -1, Y: -1, Z: 1}, {X: 1, Y: -1, Z: 1}, {X: 1, Y: 1, Z: 1}, {X: -1, Y: 1, Z: 1},
	}
	wantTris := [][3]int32{
		{0, 1, 2}, {0, 2, 3}, // f 1 2 3 4
		{4, 5, 6}, {4, 6, 7}, // f 5/1 6/2 7/3 8/4
		{0, 1, 5}, {0, 5, 4}, // f 1//1 2//1 6//1 5//1
		{3, 2, 6}, {3, 6, 7}, // f 4/1/2 3/2/2 7/3/2 8/4/2
		{0, 4, 7}, {0, 7, 3}, // f -8 -4 -1 \ -5 (continued line)
		{1, 2, 6}, {1, 6, 5}, // f -7 -6 -2 -3
	}
	if !reflect.DeepEqual(s.Verts, wantVerts) {
		t.Errorf("verts = %v, want %v", s.Verts, wantVerts)
	}
	if !reflect.DeepEqual(s.Tris, wantTris) {
		t.Errorf("tris = %v, want %v", s.Tris, wantTris)
	}
	if len(s.Areas) != len(wantTris) {
		t.Fatalf("%d areas for %d triangles", len(s.Areas), len(wantTris))
	}
	for i, a := range s.Areas {
		if a != AreaWalkable {
			t.Fatalf("area %d = %d, want AreaWalkable", i, a)
		}
	}
}

func TestReadOBJForms(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		verts int
		tris  [][3]int32
	}{
		{"empty", "", 0, nil},
		{"comments only", "# hello\n\n   \n#\n", 0, nil},
		{"triangle", "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n", 3, [][3]int32{{0, 1, 2}}},
		{"no final newline", "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3", 3, [][3]int32{{0, 1, 2}}},
		{"pentagon fan", "v 0 0 0\nv 1 0 0\nv 2 0 1\nv 1 0 2\nv 0 0 1\nf 1 2 3 4 5\n", 5,
			[][3]int32{{0, 1, 2}, {0, 2, 3}, {0, 3, 4}}},
		{"negative", "v 0 0 0\nv 1 0 0\nv 0 0 1\nf -3 -2 -1\nv 5 5 5\nf -1 -2 -3\n", 4,
			[][3]int32{{0, 1, 2}, {3, 2, 1}}},
		{"all slash forms", "v 0 0 0\nv 1 0 0\nv 0 0 1\nvt 0 0\nvn 0 1 0\nf 1/1 2/1/1 3//1\n", 3,
			[][3]int32{{0, 1, 2}}},
		{"tabs crlf", "v\t0\t0\t0\r\nv 1 0 0\r\nv 0 0 1\r\nf\t1 2\t3\r\n", 3, [][3]int32{{0, 1, 2}}},
		{"inline comment", "v 0 0 0 # origin\nv 1 0 0\nv 0 0 1\nf 1 2 3# tri\n", 3, [][3]int32{{0, 1, 2}}},
		{"w and colours ignored", "v 0 0 0 1\nv 1 0 0 1 0.5 0.5 0.5\nv 0 0 1\nf 1 2 3\n", 3,
			[][3]int32{{0, 1, 2}}},
		{"ignored statements", "mtllib a.mtl\no obj\ng a b\ns 1\nusemtl m\nvp 0.5\nl 1 2\np 1\nv 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n", 3,
			[][3]int32{{0, 1, 2}}},
		{"continuation", "v 0 \\\n 0 0\nv 1 0 0\nv 0 0 1\nf 1 \\\n2 \\\n3\n", 3, [][3]int32{{0, 1, 2}}},
		{"degenerate kept", "v 0 0 0\nf 1 1 1\n", 1, [][3]int32{{0, 0, 0}}},
		{"exponents", "v 1e2 -2.5E-1 .5\nv +1 0 0\nv 0 0 1\nf 1 2 3\n", 3, [][3]int32{{0, 1, 2}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ReadOBJ(strings.NewReader(tc.in), "t.obj")
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Verts) != tc.verts {
				t.Errorf("%d verts, want %d", len(s.Verts), tc.verts)
			}
			if !reflect.DeepEqual(s.Tris, tc.tris) {
				t.Errorf("tris = %v, want %v", s.Tris, tc.tris)
			}
			if err := s.Validate(); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestReadOBJExponentValues(t *testing.T) {
	s, err := ReadOBJ(strings.NewReader("v 1e2 -2.5E-1 .5\nv 1e-50 -0 3.4028234e38\n"), "t.obj")
	if err != nil {
		t.Fatal(err)
	}
	want := []geom.Vec3{{X: 100, Y: -0.25, Z: 0.5}, {X: 0, Y: float32(math.Copysign(0, -1)), Z: math.MaxFloat32}}
	for i := range want {
		if s.Verts[i] != want[i] || math.Signbit(float64(s.Verts[i].Y)) != math.Signbit(float64(want[i].Y)) {
			t.Errorf("vertex %d = %v, want %v", i, s.Verts[i], want[i])
		}
	}
}

func TestReadOBJErrors(t *testing.T) {
	const tri = "v 0 0 0\nv 1 0 0\nv 0 0 1\n"
	tests := []struct {
		name string
		in   string
		want string // the exact error text
	}{
		{"unknown statement", tri + "vx 1 2 3\n", `bad.obj:4: unknown statement "vx"`},
		{"vertex too few", "v 1 2\n", `bad.obj:1: vertex needs 3 coordinates, got 2`},
		{"vertex none", "v\n", `bad.obj:1: vertex needs 3 coordinates, got 0`},
		{"vertex bad x", "v a 2 3\n", `bad.obj:1: bad x coordinate "a"`},
		{"vertex bad z", "\n\nv 1 2 3z\n", `bad.obj:3: bad z coordinate "3z"`},
		{"vertex hex", "v 0x1p3 2 3\n", `bad.obj:1: bad x coordinate "0x1p3"`},
		{"vertex underscore", "v 1_000 2 3\n", `bad.obj:1: bad x coordinate "1_000"`},
		{"vertex nan", "v 1 nan 3\n", `bad.obj:1: y coordinate "nan" is not finite`},
		{"vertex inf", "v 1 2 -Inf\n", `bad.obj:1: z coordinate "-Inf" is not finite`},
		{"vertex overflow", "v 1e39 2 3\n", `bad.obj:1: x coordinate "1e39" out of float32 range`},
		{"face too few", tri + "f 1 2\n", `bad.obj:4: face needs at least 3 vertices, got 2`},
		{"face empty", tri + "f\n", `bad.obj:4: face needs at least 3 vertices, got 0`},
		{"face index zero", tri + "f 0 1 2\n", `bad.obj:4: face index 0 out of range (1..3)`},
		{"face index high", tri + "f 1 2 4\n", `bad.obj:4: face index 4 out of range (1..3)`},
		{"face forward reference", "v 0 0 0\nf 1 2 3\nv 1 0 0\nv 0 0 1\n", `bad.obj:2: face index 2 out of range (1..1)`},
		{"face negative out of range", tri + "f -1 -2 -4\n", `bad.obj:4: face index -4 out of range (-3..-1)`},
		{"face before vertices", "f 1 2 3\n", `bad.obj:1: face index 1 but no vertex defined yet`},
		{"face huge index", tri + "f 1 2 99999999999999999999\n", `bad.obj:4: face index 99999999999999999999 out of range (1..3)`},
		{"face huge negative", tri + "f 1 2 -99999999999999999999\n", `bad.obj:4: face index -99999999999999999999 out of range (-3..-1)`},
		{"face min int64", tri + "f 1 2 -9223372036854775808\n", `bad.obj:4: face index -9223372036854775808 out of range (-3..-1)`},
		{"face bad index", tri + "f 1 2 x\n", `bad.obj:4: bad face index "x"`},
		{"face float index", tri + "f 1 2 3.0\n", `bad.obj:4: bad face index "3.0"`},
		{"face no position", tri + "f 1 2 /1/1\n", `bad.obj:4: face vertex "/1/1" has no position index`},
		{"face bad texture", tri + "f 1 2 3/a\n", `bad.obj:4: bad texture or normal index in face vertex "3/a"`},
		{"face bad normal", tri + "f 1 2 3//n\n", `bad.obj:4: bad texture or normal index in face vertex "3//n"`},
		{"face four indices", tri + "f 1 2 3/1/1/1\n", `bad.obj:4: face vertex "3/1/1/1" has more than 3 indices`},
		{"line number after crlf", "# a\r\n# b\r\nv 1 2\r\n", `bad.obj:3: vertex needs 3 coordinates, got 2`},
		{"continued statement reports its first line", "v 1 \\\n 2\n", `bad.obj:1: vertex needs 3 coordinates, got 2`},
		{"long token cut", "v " + strings.Repeat("9", 60) + "x 0 0\n",
			`bad.obj:1: bad x coordinate "` + strings.Repeat("9", 40) + `"...`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ReadOBJ(strings.NewReader(tc.in), "bad.obj")
			if err == nil {
				t.Fatalf("no error, got %d verts %d tris", len(s.Verts), len(s.Tris))
			}
			if s != nil {
				t.Errorf("soup returned with error")
			}
			if err.Error() != tc.want {
				t.Errorf("error\n got %s\nwant %s", err, tc.want)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Errorf("error %T is not a *ParseError", err)
			}
		})
	}
}

// endlessOBJ is an OBJ that never ends: one vertex line, then a triangle
// over the last three vertices, forever. It counts the bytes read.
type endlessOBJ struct {
	n    int
	read int64
	buf  []byte
}

func (e *endlessOBJ) Read(b []byte) (int, error) {
	for len(e.buf) < len(b) {
		e.n++
		e.buf = fmt.Appendf(e.buf, "v %d 0 %d\n", e.n, e.n%7)
		if e.n >= 3 {
			e.buf = append(e.buf, "f -1 -2 -3\n"...)
		}
	}
	k := copy(b, e.buf)
	e.buf = e.buf[k:]
	e.read += int64(k)
	return k, nil
}

// TestReadOBJCountLimits: ReadOBJ accepts a soup at its vertex and
// triangle limits and refuses one over them at the line that crosses
// the limit (cause ErrOBJTooLarge, the error naming the file, the line
// and the limit), without reading on: an endless OBJ stream ends there.
func TestReadOBJCountLimits(t *testing.T) {
	const quad = "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\n"
	tests := []struct {
		name              string
		in                string
		maxVerts, maxTris int
		want              string // the error, or "" for success
	}{
		{"at both limits", quad + "f 1 2 3 4\n", 4, 2, ""},
		{"one vertex over", quad + "v 2 0 2\nf 1 2 3\n", 4, 2,
			"big.obj:5: more than 4 vertices, the most ReadOBJ accepts (MaxOBJVertices: 12 bytes each in memory, a level far over the build's memory budget)"},
		{"a fan over the triangles", quad + "f 1 2 3\nf 1 2 3 4\n", 4, 2,
			"big.obj:6: more than 2 triangles, the most ReadOBJ accepts (MaxOBJTriangles: 13 bytes each in memory, a level far over the build's memory budget)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := readOBJ(strings.NewReader(tc.in), "big.obj", tc.maxVerts, tc.maxTris)
			if tc.want == "" {
				if err != nil || len(s.Verts) != tc.maxVerts || len(s.Tris) != tc.maxTris {
					t.Fatalf("soup %v, error %v; want %d vertices, %d triangles", s, err, tc.maxVerts, tc.maxTris)
				}
				return
			}
			if err == nil || err.Error() != tc.want || s != nil {
				t.Fatalf("error\n got %v\nwant %s", err, tc.want)
			}
			if !errors.Is(err, ErrOBJTooLarge) {
				t.Errorf("error %v does not wrap ErrOBJTooLarge", err)
			}
		})
	}

	for _, lim := range []struct{ verts, tris int }{{1000, 1 << 20}, {1 << 20, 500}} {
		in := &endlessOBJ{}
		_, err := readOBJ(in, "endless.obj", lim.verts, lim.tris)
		if !errors.Is(err, ErrOBJTooLarge) {
			t.Fatalf("endless OBJ, limits %v: error %v, want ErrOBJTooLarge", lim, err)
		}
		// The bufio buffers read at most 64 KiB ahead of the line.
		if in.read > int64(max(lim.verts, lim.tris))*40+(128<<10) {
			t.Errorf("endless OBJ, limits %v: read %d bytes before the error %v", lim, in.read, err)
		}
	}
	if MaxOBJVertices != 1<<25 || MaxOBJTriangles != 1<<25 {
		t.Errorf("limits %d vertices, %d triangles: docs/build.md and the doc comment say 2^25", MaxOBJVertices, MaxOBJTriangles)
	}
}

func TestReadOBJLongLine(t *testing.T) {
	in := "v 0 0 0\n# " + strings.Repeat("x", MaxOBJLineBytes) + "\n"
	_, err := ReadOBJ(strings.NewReader(in), "long.obj")
	want := "long.obj:2: line longer than 1048576 bytes"
	if err == nil || err.Error() != want {
		t.Fatalf("error %v, want %s", err, want)
	}
	if !errors.Is(err, bufio.ErrTooLong) {
		t.Errorf("error does not wrap bufio.ErrTooLong")
	}
}

func TestReadOBJBOM(t *testing.T) {
	const bom = "\xef\xbb\xbf"
	for _, tc := range []struct {
		name, in string
		verts    int
		want     string // the error, or "" for success
	}{
		{"bom then vertex", bom + "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n", 3, ""},
		{"bom then comment", bom + "# exported\r\nv 0 0 0\r\n", 1, ""},
		{"bom only", bom, 0, ""},
		{"bom then error keeps line 1", bom + "v 1 2\n", 0, "bom.obj:1: vertex needs 3 coordinates, got 2"},
		{"bom then binary counts offsets from the file start", bom + "v \x01", 0, "bom.obj: not a Wavefront OBJ (binary data: byte 0x01 at offset 5)"},
		{"second bom is not skipped", bom + bom + "v 0 0 0\n", 0, `bom.obj:1: unknown statement "\ufeffv"`},
		{"bom on line 2", "v 0 0 0\n" + bom + "v 1 0 0\n", 0, `bom.obj:2: unknown statement "\ufeffv"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ReadOBJ(strings.NewReader(tc.in), "bom.obj")
			if tc.want != "" {
				if err == nil || err.Error() != tc.want {
					t.Fatalf("error %v, want %s", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Verts) != tc.verts {
				t.Errorf("%d vertices, want %d", len(s.Verts), tc.verts)
			}
		})
	}
}

// TestReadOBJNotOBJ feeds files of other kinds: each is one error,
// "name: not a Wavefront OBJ (what)", wrapping ErrNotOBJ.
func TestReadOBJNotOBJ(t *testing.T) {
	var png bytes.Buffer
	if err := pngEncode(&png); err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n"))
	zw.Close()
	utf16 := []byte{0xff, 0xfe}
	for _, c := range "v 0 0 0\n" {
		utf16 = append(utf16, byte(c), 0)
	}
	long := strings.Repeat("# fine text\n", 60) // binary after the first 512 bytes is left to the parser
	for _, tc := range []struct {
		name string
		in   []byte
		what string
	}{
		{"png", png.Bytes(), "PNG image"},
		{"jpeg", []byte("\xff\xd8\xff\xe0\x00\x10JFIF"), "JPEG image"},
		{"gif", []byte("GIF89a\x01\x00"), "GIF image"},
		{"gzip", gz.Bytes(), "gzip-compressed data"},
		{"zip", []byte("PK\x03\x04\x14\x00"), "zip archive"},
		{"pdf", []byte("%PDF-1.7\n"), "PDF document"},
		{"elf", []byte("\x7fELF\x02\x01\x01"), "executable"},
		{"glb", []byte("glTF\x02\x00\x00\x00"), "binary glTF model"},
		{"fbx", []byte("Kaydara FBX Binary  \x00"), "binary FBX model"},
		{"ply", []byte("ply\nformat ascii 1.0\n"), "PLY model"},
		{"navmesh", []byte("NVMS\x01\x00\x00\x00"), "navviz navmesh, as written by navmesh build -o"},
		{"snapshot", []byte("NVTC\x01\x00\x00\x00"), "navviz tile-cache snapshot"},
		{"utf-16", utf16, "UTF-16 text; save it as UTF-8"},
		{"json", []byte(`{"verts": [[0, 0, 0]]}`), "JSON"},
		{"json array after blank lines", []byte("\n\n  [1, 2, 3]\n"), "JSON"},
		{"xml", []byte("<?xml version=\"1.0\"?>\n<COLLADA>"), "XML or HTML"},
		{"html", []byte("<!DOCTYPE html>\n<html>"), "XML or HTML"},
		{"ascii stl", []byte("solid cube\n  facet normal 0 0 1\n"), "ASCII STL model"},
		{"nul in a comment", []byte("v 0 0 0\n# \x00\n"), "binary data: byte 0x00 at offset 10"},
		{"control bytes", []byte("\x00\x01\x02\n"), "binary data: byte 0x00 at offset 0"},
		{"escape", []byte("v 0 0 0\x1b[0m\n"), "binary data: byte 0x1b at offset 7"},
		{"not utf-8, first statement fails", []byte("\xc3\x28\xa0\xa1 stuff\n"), `not UTF-8 text; line 1: unknown statement "\xc3(\xa0\xa1"`},
		{"not utf-8 after blank lines", []byte("\n\n\xe9t\xe9\n"), `not UTF-8 text; line 3: unknown statement "\xe9t\xe9"`},
		{"binary past the first 512 bytes", []byte(long + "\x00"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ReadOBJ(bytes.NewReader(tc.in), "in.obj")
			if err == nil {
				t.Fatalf("accepted: %d vertices", len(s.Verts))
			}
			if tc.what == "" {
				if errors.Is(err, ErrNotOBJ) {
					t.Errorf("error %v wraps ErrNotOBJ", err)
				}
				return
			}
			if want := "in.obj: not a Wavefront OBJ (" + tc.what + ")"; err.Error() != want {
				t.Errorf("error\n got %s\nwant %s", err, want)
			}
			if !errors.Is(err, ErrNotOBJ) {
				t.Errorf("error does not wrap ErrNotOBJ")
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is more than one line")
			}
		})
	}
}

// TestReadOBJNotUTF8Accepted: an OBJ whose comments and names are Latin-1
// (as some old exporters write) still reads; a later error in it is an
// ordinary line error.
func TestReadOBJNotUTF8Accepted(t *testing.T) {
	in := "# cr\xe9\xe9 par un exporteur\ng caf\xe9\nv 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n"
	s, err := ReadOBJ(strings.NewReader(in), "latin1.obj")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tris) != 1 {
		t.Errorf("%d triangles, want 1", len(s.Tris))
	}
	_, err = ReadOBJ(strings.NewReader(in+"f 1 2 9\n"), "latin1.obj")
	if want := "latin1.obj:7: face index 9 out of range (1..3)"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

// TestOBJErrorsNameTheFile checks every kind of error, from ReadOBJ,
// LoadOBJ and Load, names the file.
func TestOBJErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var png bytes.Buffer
	if err := pngEncode(&png); err != nil {
		t.Fatal(err)
	}
	photo := write("photo.obj", png.String())
	parse := write("parse.obj", "v 0 0 0\nf 1 2 3\n")
	sub := filepath.Join(dir, "sub.obj")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.obj")
	for _, tc := range []struct {
		name string
		load func() error
		want string // a substring of the error, the file name in it
	}{
		{"LoadOBJ not an OBJ", func() error { _, err := LoadOBJ(photo); return err }, photo + ": not a Wavefront OBJ (PNG image)"},
		{"Load not an OBJ", func() error { _, err := Load(photo); return err }, photo + ": not a Wavefront OBJ (PNG image)"},
		{"LoadOBJ parse error", func() error { _, err := LoadOBJ(parse); return err }, parse + ":2: face index 2"},
		{"LoadOBJ directory", func() error { _, err := LoadOBJ(sub); return err }, sub + " is a directory"},
		{"LoadOBJ missing", func() error { _, err := LoadOBJ(missing); return err }, missing + ": no such file"},
		{"ReadOBJ read error", func() error { _, err := ReadOBJ(&failingReader{n: 0}, "r.obj"); return err }, "r.obj:1: read: disk on fire"},
		{"ReadOBJ nil reader", func() error { _, err := ReadOBJ(nil, "nil.obj"); return err }, "nil.obj"},
		{"ReadOBJ no name", func() error { _, err := ReadOBJ(strings.NewReader("x\n"), ""); return err }, `OBJ input:1: unknown statement "x"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.load()
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want %q in it", err, tc.want)
			}
		})
	}
}

// pngEncode writes a tiny PNG image to w.
func pngEncode(w io.Writer) error {
	return png.Encode(w, image.NewGray(image.Rect(0, 0, 2, 2)))
}

type failingReader struct{ n int }

func (r *failingReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, errors.New("disk on fire")
	}
	r.n--
	return copy(p, "v 0 0 0\n"), nil
}

func TestReadOBJReadError(t *testing.T) {
	_, err := ReadOBJ(&failingReader{n: 2}, "r.obj")
	if err == nil || err.Error() != "r.obj:3: read: disk on fire" {
		t.Fatalf("error %v", err)
	}
	if _, err := ReadOBJ(nil, "nil.obj"); err == nil {
		t.Fatal("nil reader: no error")
	}
}

func TestLoadOBJMissing(t *testing.T) {
	_, err := LoadOBJ(filepath.Join("testdata", "no-such-file.obj"))
	if err == nil || !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "no-such-file.obj") {
		t.Fatalf("error %v, want a not-exist error naming the file", err)
	}
}

func TestLoadOBJErrorNamesPath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dungeon.obj")
	body := "v 0 0 0\nv 1 0 0\nv 0 0 1\nv 1 0 1\nv 0 1 0\nv 1 1 0\nv 0 1 1\nv 1 1 1\n# faces\n\n\nf 0 1 2\n"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadOBJ(path)
	if want := path + ":12: face index 0 out of range (1..8)"; err == nil || err.Error() != want {
		t.Fatalf("error %v, want %s", err, want)
	}
}

// randomSoup returns a valid soup with awkward float32 values.
func randomSoup(rng *rand.Rand, nv, nt int) *Soup {
	s := &Soup{}
	specials := []float32{0, float32(math.Copysign(0, -1)), math.MaxFloat32, -math.MaxFloat32,
		math.SmallestNonzeroFloat32, 1e-30, 0.1, 1.0 / 3, 16777217}
	for range nv {
		var c [3]float32
		for k := range c {
			if rng.IntN(8) == 0 {
				c[k] = specials[rng.IntN(len(specials))]
			} else {
				c[k] = float32(rng.NormFloat64() * 100)
			}
		}
		s.Verts = append(s.Verts, geom.Vec3{X: c[0], Y: c[1], Z: c[2]})
	}
	for range nt {
		s.Tris = append(s.Tris, [3]int32{int32(rng.IntN(nv)), int32(rng.IntN(nv)), int32(rng.IntN(nv))})
		s.Areas = append(s.Areas, AreaWalkable)
	}
	return s
}

// sameSoup compares soups bit for bit (so -0 differs from 0).
func sameSoup(a, b *Soup) bool {
	if len(a.Verts) != len(b.Verts) || !reflect.DeepEqual(a.Tris, b.Tris) || !reflect.DeepEqual(a.Areas, b.Areas) {
		return false
	}
	for i := range a.Verts {
		x, y := a.Verts[i], b.Verts[i]
		if math.Float32bits(x.X) != math.Float32bits(y.X) || math.Float32bits(x.Y) != math.Float32bits(y.Y) ||
			math.Float32bits(x.Z) != math.Float32bits(y.Z) {
			return false
		}
	}
	return true
}

func TestWriteOBJRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, size := range []struct{ nv, nt int }{{0, 0}, {3, 1}, {50, 80}, {2000, 4000}} {
		s := randomSoup(rng, size.nv, size.nt)
		var buf bytes.Buffer
		if err := WriteOBJ(&buf, s); err != nil {
			t.Fatal(err)
		}
		back, err := ReadOBJ(bytes.NewReader(buf.Bytes()), "roundtrip.obj")
		if err != nil {
			t.Fatal(err)
		}
		if size.nt == 0 {
			back.Areas = s.Areas // nil vs empty
			if len(back.Tris) == 0 {
				back.Tris = s.Tris
			}
			if len(back.Verts) == 0 {
				back.Verts = s.Verts
			}
		}
		if !sameSoup(s, back) {
			t.Fatalf("round trip of %d verts %d tris differs", size.nv, size.nt)
		}
		var again bytes.Buffer
		if err := WriteOBJ(&again, back); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), again.Bytes()) {
			t.Fatal("writing the read-back soup gives different bytes")
		}
	}
}

func TestWriteOBJBytes(t *testing.T) {
	s := &Soup{
		Verts: []geom.Vec3{{X: 0, Y: 0.1, Z: -2}, {X: 1e6, Y: 1.5e-7, Z: float32(math.Copysign(0, -1))}, {X: 3, Y: 4, Z: 5}},
		Tris:  [][3]int32{{0, 1, 2}, {2, 1, 0}},
		Areas: []uint8{AreaWalkable, AreaNull},
	}
	var buf bytes.Buffer
	if err := WriteOBJ(&buf, s); err != nil {
		t.Fatal(err)
	}
	want := "# navviz level: 3 vertices, 2 triangles\n" +
		"v 0 0.1 -2\nv 1e+06 1.5e-07 -0\nv 3 4 5\n" +
		"f 1 2 3\nf 3 2 1\n"
	if buf.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteOBJErrors(t *testing.T) {
	if err := WriteOBJ(&bytes.Buffer{}, nil); err == nil {
		t.Error("nil soup: no error")
	}
	bad := &Soup{Verts: []geom.Vec3{{}}, Tris: [][3]int32{{0, 0, 1}}, Areas: []uint8{AreaWalkable}}
	if err := WriteOBJ(&bytes.Buffer{}, bad); err == nil || !strings.Contains(err.Error(), "vertex index 1") {
		t.Errorf("bad index: error %v", err)
	}
	nan := &Soup{Verts: []geom.Vec3{{X: float32(math.NaN())}}}
	if err := WriteOBJ(&bytes.Buffer{}, nan); err == nil {
		t.Error("NaN vertex: no error")
	}
	ok := &Soup{Verts: []geom.Vec3{{}}}
	if err := WriteOBJ(failingWriter{}, ok); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("failing writer: error %v", err)
	}
}

// TestSharedLevels pins the counts of the shared levels, found independently
// with awk: the number of `v` lines, and the sum of (vertices - 2) over the
// `f` lines:
//
//	tr -d '\r' < NAME.obj | awk '$1=="v"{v++} $1=="f"{t+=NF-3} END{print v, t}'
func TestSharedLevels(t *testing.T) {
	tests := []struct {
		name        string
		verts, tris int
	}{
		{"dungeon", 5101, 10133},
		{"nav_test", 884, 1612},
		{"bridge", 29, 54},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := LoadOBJ(sharedLevel(t, tc.name))
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Verts) != tc.verts || len(s.Tris) != tc.tris {
				t.Fatalf("%d verts %d tris, want %d and %d", len(s.Verts), len(s.Tris), tc.verts, tc.tris)
			}
			if err := s.Validate(); err != nil {
				t.Fatal(err)
			}
			t.Logf("bounds %v", s.Bounds())
		})
	}
}

func TestSharedLevelsRoundTrip(t *testing.T) {
	for _, name := range []string{"dungeon", "nav_test", "bridge"} {
		s, err := LoadOBJ(sharedLevel(t, name))
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := WriteOBJ(&buf, s); err != nil {
			t.Fatal(err)
		}
		back, err := ReadOBJ(&buf, name+".obj")
		if err != nil {
			t.Fatal(err)
		}
		if !sameSoup(s, back) {
			t.Fatalf("%s: round trip differs", name)
		}
	}
}

func BenchmarkReadOBJDungeon(b *testing.B) {
	data, err := os.ReadFile(sharedLevel(b, "dungeon"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadOBJ(bytes.NewReader(data), "dungeon.obj"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWriteOBJDungeon(b *testing.B) {
	s, err := LoadOBJ(sharedLevel(b, "dungeon"))
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := WriteOBJ(&buf, s); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(buf.Len()))
}
