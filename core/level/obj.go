package level

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"navviz/core/geom"
)

// MaxOBJLineBytes is the longest line (after joining backslash
// continuations) ReadOBJ accepts, in bytes.
const MaxOBJLineBytes = 1 << 20

// The most vertices and triangles (after fan triangulation) ReadOBJ
// accepts: 2^25, about 33.5 million, each. ReadOBJ streams its input (a
// file of any length costs one line of memory), so the soup it grows is
// what bounds its memory: 12 bytes a vertex and 13 a triangle (three
// indices, an area id), 800 MiB at both limits and up to twice that while
// the slices grow. A soup that size leaves room for its build in the
// pipeline's default memory budget of 4 GiB (pipeline.DefaultMaxBytes)
// only for the plainest level; larger ones are refused before they are
// read to the end. Levels such as Recast's samples have well under a
// million triangles.
const (
	MaxOBJVertices  = 1 << 25
	MaxOBJTriangles = 1 << 25
)

// ErrOBJTooLarge is the cause (ParseError.Err) of the error ReadOBJ
// returns for input with more than MaxOBJVertices vertices or
// MaxOBJTriangles triangles. Test for it with errors.Is.
var ErrOBJTooLarge = errors.New("OBJ too large")

// ParseError is a malformed-input error from ReadOBJ. Its text is
// "Name:Line: Msg", e.g. `dungeon.obj:12: face index 0 out of range (1..8)`,
// or "Name: Msg" when the error is about the whole input, e.g.
// `photo.obj: not a Wavefront OBJ (PNG image)`.
type ParseError struct {
	Name string // the source name given to ReadOBJ (the path for LoadOBJ)
	Line int    // 1-based line number of the offending statement; 0: the whole input
	Msg  string // what is wrong, quoting the offending token
	Err  error  // the underlying cause (a strconv or read error, ErrNotOBJ), or nil
}

func (e *ParseError) Error() string {
	if e == nil {
		return "<nil>"
	}
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.Name, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.Name, e.Line, e.Msg)
}

// ErrNotOBJ is the cause (ParseError.Err) of the error ReadOBJ returns for
// input that is not Wavefront OBJ text at all: an image, an archive,
// another model format, binary data. Test for it with errors.Is.
var ErrNotOBJ = errors.New("not a Wavefront OBJ")

// objBOM is the UTF-8 byte order mark some editors put at the start of a
// text file.
const objBOM = "\xef\xbb\xbf"

// objSniffBytes is how much of the input ReadOBJ looks at to tell an OBJ
// from binary data.
const objSniffBytes = 512

// objMagics are the starts of files that are surely not OBJ text, with
// what they are.
var objMagics = []struct{ magic, what string }{
	{"\x89PNG\r\n\x1a\n", "PNG image"},
	{"\xff\xd8\xff", "JPEG image"},
	{"GIF87a", "GIF image"},
	{"GIF89a", "GIF image"},
	{"\x1f\x8b", "gzip-compressed data"},
	{"PK\x03\x04", "zip archive"},
	{"\xfd7zXZ\x00", "xz-compressed data"},
	{"\x28\xb5\x2f\xfd", "zstd-compressed data"},
	{"%PDF-", "PDF document"},
	{"\x7fELF", "executable"},
	{"glTF", "binary glTF model"},
	{"Kaydara FBX Binary", "binary FBX model"},
	{"ply\n", "PLY model"},
	{"ply\r\n", "PLY model"},
	{"NVMS", "navviz navmesh, as written by navmesh build -o"},
	{"NVTC", "navviz tile-cache snapshot"},
	{"\xff\xfe", "UTF-16 text; save it as UTF-8"},
	{"\xfe\xff", "UTF-16 text; save it as UTF-8"},
}

// objSniff returns why head, the first bytes of the input after any BOM,
// cannot start an OBJ file ("" when it can): a known magic number, a JSON,
// XML/HTML or ASCII STL start, or a NUL or control byte (offset is added
// to the byte offsets it reports).
func objSniff(head []byte, offset int) string {
	for _, m := range objMagics {
		if bytes.HasPrefix(head, []byte(m.magic)) {
			return m.what
		}
	}
	text := bytes.TrimLeft(head, " \t\r\n\v\f")
	switch {
	case bytes.HasPrefix(text, []byte("{")), bytes.HasPrefix(text, []byte("[")):
		return "JSON"
	case bytes.HasPrefix(text, []byte("<")):
		return "XML or HTML"
	case bytes.HasPrefix(text, []byte("solid")) && (len(text) == 5 || objSpace(text[5]) || text[5] == '\n'):
		return "ASCII STL model"
	}
	for i, c := range head {
		if (c < 0x20 && !objSpace(c) && c != '\n') || c == 0x7f {
			return fmt.Sprintf("binary data: byte 0x%02x at offset %d", c, offset+i)
		}
	}
	return ""
}

// objValidUTF8 reports whether head is UTF-8, ignoring a rune cut off at
// its end when the input goes on (more).
func objValidUTF8(head []byte, more bool) bool {
	if more {
		for k := 1; k <= utf8.UTFMax && k <= len(head); k++ {
			if utf8.RuneStart(head[len(head)-k]) {
				if !utf8.FullRune(head[len(head)-k:]) {
					head = head[:len(head)-k]
				}
				break
			}
		}
	}
	return utf8.Valid(head)
}

// Unwrap returns the underlying cause, if any.
func (e *ParseError) Unwrap() error {
	if e == nil {
		return nil
	}
	return e.Err
}

// objIgnored lists the OBJ statements ReadOBJ accepts and skips: texture
// coordinates, normals, grouping, smoothing, materials, point and line
// elements, and the free-form geometry statements.
var objIgnored = map[string]bool{
	"vt": true, "vn": true, "vp": true,
	"g": true, "o": true, "s": true, "mg": true,
	"usemtl": true, "mtllib": true, "maplib": true, "usemap": true,
	"l": true, "p": true,
	"cstype": true, "deg": true, "bmat": true, "step": true,
	"curv": true, "curv2": true, "surf": true, "parm": true,
	"trim": true, "hole": true, "scrv": true, "sp": true, "end": true, "con": true,
	"bevel": true, "c_interp": true, "d_interp": true, "lod": true,
	"shadow_obj": true, "trace_obj": true, "ctech": true, "stech": true,
}

// LoadOBJ reads the Wavefront OBJ file at path; see ReadOBJ. Every error
// names the path (and the line, for a parse error).
func LoadOBJ(path string) (*Soup, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("level: load OBJ: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("level: load OBJ: %s is a directory", path)
	}
	return ReadOBJ(f, path)
}

// ReadOBJ reads a Wavefront OBJ mesh from r into a Soup (positions in metres,
// as written). name is used only in error messages (a file name, say).
//
// It understands `v x y z` (a fourth w and anything after it, such as
// vertex colours, is ignored) and `f` faces of three or more vertices, which
// are fan-triangulated (v0 vi vi+1). Face vertices may be written `v`,
// `v/vt`, `v//vn` or `v/vt/vn`; only the position index is used. Indices are
// 1-based and must refer to a vertex defined earlier in the file; negative
// indices count back from the last vertex defined (-1 is the latest).
// Comments (`#` to end of line), blank lines, CRLF line ends and `\`
// line continuations are accepted; texture coordinates, normals, groups,
// objects, smoothing groups, materials, point/line elements and free-form
// statements are skipped. A UTF-8 byte order mark at the start is skipped.
// Every triangle gets AreaWalkable. Empty input (or only comments) gives
// an empty soup.
//
// Input that is not OBJ text at all is one error, "name: not a Wavefront
// OBJ (what it is)", with cause ErrNotOBJ, found from its first 512 bytes:
// a known magic number (PNG, JPEG, GIF, gzip, zip, xz, zstd, PDF, ELF,
// binary glTF or FBX, PLY, navviz's navmesh and snapshot files, UTF-16
// text), a JSON, XML/HTML or ASCII STL start, a NUL or other control byte
// (tab, CR, LF, VT and FF aside), or bytes that are not UTF-8 when the
// first statement already fails.
//
// Anything else is an error of type *ParseError naming the line and the
// offending token: an unknown statement, a vertex with fewer than three
// coordinates or a coordinate that is not a decimal number, not finite or
// out of float32 range, a face with fewer than three vertices, a malformed
// or out-of-range index, more than MaxOBJVertices vertices or
// MaxOBJTriangles triangles (cause ErrOBJTooLarge, at the line that
// crosses the limit: the rest is not read). A read error is a *ParseError
// too. Every error names name ("OBJ input" when name is empty). On error
// the returned soup is nil.
func ReadOBJ(r io.Reader, name string) (*Soup, error) {
	return readOBJ(r, name, MaxOBJVertices, MaxOBJTriangles)
}

// readOBJ is ReadOBJ accepting at most maxVerts vertices and maxTris
// triangles.
func readOBJ(r io.Reader, name string, maxVerts, maxTris int) (*Soup, error) {
	if name == "" {
		name = "OBJ input"
	}
	if r == nil {
		return nil, fmt.Errorf("level: read OBJ %s: nil reader", name)
	}
	// A read error met while peeking comes back to the scanner below, at
	// the line it cuts.
	br := bufio.NewReaderSize(&objStickyReader{r: r}, 64<<10)
	head, err := br.Peek(len(objBOM) + objSniffBytes)
	more := err == nil
	offset := 0
	if bytes.HasPrefix(head, []byte(objBOM)) {
		offset = len(objBOM)
		head = head[offset:]
	}
	if what := objSniff(head, offset); what != "" {
		return nil, &ParseError{Name: name, Msg: fmt.Sprintf("%v (%s)", ErrNotOBJ, what), Err: ErrNotOBJ}
	}
	headUTF8 := objValidUTF8(head, more)
	br.Discard(offset) // cannot fail: the bytes were peeked
	p := objParser{name: name, soup: &Soup{}, maxVerts: maxVerts, maxTris: maxTris}
	sc := bufio.NewScanner(br)
	sc.Buffer(make([]byte, 0, 64<<10), MaxOBJLineBytes)
	line := 0
	for sc.Scan() {
		line++
		start := line
		text := objStripComment(sc.Text())
		// A backslash at the end of a line continues the statement.
		if strings.HasSuffix(text, `\`) {
			var b strings.Builder
			b.WriteString(text[:len(text)-1])
			for sc.Scan() {
				line++
				next := objStripComment(sc.Text())
				if b.Len()+1+len(next) > MaxOBJLineBytes {
					return nil, &ParseError{Name: name, Line: start, Msg: fmt.Sprintf("statement longer than %d bytes", MaxOBJLineBytes)}
				}
				b.WriteByte(' ')
				if !strings.HasSuffix(next, `\`) {
					b.WriteString(next)
					break
				}
				b.WriteString(next[:len(next)-1])
			}
			text = b.String()
		}
		if err := p.statement(start, text); err != nil {
			var pe *ParseError
			if !p.accepted && !headUTF8 && errors.As(err, &pe) {
				return nil, &ParseError{Name: name, Msg: fmt.Sprintf("%v (not UTF-8 text; line %d: %s)", ErrNotOBJ, pe.Line, pe.Msg), Err: ErrNotOBJ}
			}
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		msg := "read: " + err.Error()
		if errors.Is(err, bufio.ErrTooLong) {
			msg = fmt.Sprintf("line longer than %d bytes", MaxOBJLineBytes)
		}
		return nil, &ParseError{Name: name, Line: line + 1, Msg: msg, Err: err}
	}
	s := p.soup
	s.Areas = make([]uint8, len(s.Tris))
	for i := range s.Areas {
		s.Areas[i] = AreaWalkable
	}
	return s, nil
}

// objStickyReader returns the first error of r on every later Read.
type objStickyReader struct {
	r   io.Reader
	err error
}

func (s *objStickyReader) Read(b []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.r.Read(b)
	s.err = err
	return n, err
}

// objStripComment removes a `#` comment and trailing white space.
func objStripComment(text string) string {
	if i := strings.IndexByte(text, '#'); i >= 0 {
		text = text[:i]
	}
	return strings.TrimRight(text, " \t\r\v\f")
}

// objParser holds the state of one ReadOBJ call.
type objParser struct {
	name     string
	soup     *Soup
	accepted bool     // a statement was read
	fields   []string // reused token buffer
	face     []int32  // reused face index buffer
	maxVerts int      // the most vertices accepted (MaxOBJVertices)
	maxTris  int      // the most triangles accepted (MaxOBJTriangles)
}

func (p *objParser) errorf(line int, cause error, format string, args ...any) error {
	return &ParseError{Name: p.name, Line: line, Msg: fmt.Sprintf(format, args...), Err: cause}
}

// objFields splits text at spaces, tabs and other ASCII white space into
// dst (reused); the strings share text's memory.
func objFields(text string, dst []string) []string {
	dst = dst[:0]
	i := 0
	for i < len(text) {
		for i < len(text) && objSpace(text[i]) {
			i++
		}
		j := i
		for j < len(text) && !objSpace(text[j]) {
			j++
		}
		if j > i {
			dst = append(dst, text[i:j])
		}
		i = j
	}
	return dst
}

func objSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' }

// objQuote quotes a token for an error message, cut to a readable length.
func objQuote(tok string) string {
	const maxLen = 40
	if len(tok) > maxLen {
		return strconv.Quote(tok[:maxLen]) + "..."
	}
	return strconv.Quote(tok)
}

func (p *objParser) statement(line int, text string) error {
	p.fields = objFields(text, p.fields)
	if len(p.fields) == 0 {
		return nil
	}
	var err error
	switch kw := p.fields[0]; {
	case kw == "v":
		err = p.vertex(line)
	case kw == "f":
		err = p.faceStatement(line)
	case objIgnored[kw]:
	default:
		err = p.errorf(line, nil, "unknown statement %s", objQuote(kw))
	}
	if err == nil {
		p.accepted = true
	}
	return err
}

func (p *objParser) vertex(line int) error {
	args := p.fields[1:]
	if len(args) < 3 {
		return p.errorf(line, nil, "vertex needs 3 coordinates, got %d", len(args))
	}
	if len(p.soup.Verts) >= p.maxVerts {
		return p.errorf(line, ErrOBJTooLarge, "more than %d vertices, the most ReadOBJ accepts (MaxOBJVertices: 12 bytes each in memory, a level far over the build's memory budget)", p.maxVerts)
	}
	var xyz [3]float32
	for i, tok := range args[:3] {
		axis := "xyz"[i : i+1]
		f, err := strconv.ParseFloat(tok, 32)
		switch {
		case errors.Is(err, strconv.ErrRange):
			return p.errorf(line, err, "%s coordinate %s out of float32 range", axis, objQuote(tok))
		case err != nil:
			return p.errorf(line, err, "bad %s coordinate %s", axis, objQuote(tok))
		case math.IsNaN(f) || math.IsInf(f, 0):
			return p.errorf(line, nil, "%s coordinate %s is not finite", axis, objQuote(tok))
		case !objDecimal(tok):
			// strconv also takes hex floats and digit separators; OBJ
			// numbers are decimal.
			return p.errorf(line, nil, "bad %s coordinate %s", axis, objQuote(tok))
		}
		xyz[i] = float32(f)
	}
	p.soup.Verts = append(p.soup.Verts, geom.Vec3{X: xyz[0], Y: xyz[1], Z: xyz[2]})
	return nil
}

func (p *objParser) faceStatement(line int) error {
	args := p.fields[1:]
	if len(args) < 3 {
		return p.errorf(line, nil, "face needs at least 3 vertices, got %d", len(args))
	}
	nv := int64(len(p.soup.Verts))
	p.face = p.face[:0]
	for _, tok := range args {
		vtok, rest, _ := strings.Cut(tok, "/")
		if vtok == "" {
			return p.errorf(line, nil, "face vertex %s has no position index", objQuote(tok))
		}
		idx, err := strconv.ParseInt(vtok, 10, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return p.errorf(line, err, "bad face index %s", objQuote(tok))
		}
		// vtok is a (possibly huge) decimal integer from here on.
		var k int64
		switch {
		case err == nil && idx > 0 && idx <= nv:
			k = idx - 1
		case err == nil && idx < 0 && idx >= -nv:
			k = nv + idx
		case nv == 0:
			return p.errorf(line, err, "face index %s but no vertex defined yet", vtok)
		case strings.HasPrefix(vtok, "-"):
			return p.errorf(line, err, "face index %s out of range (-%d..-1)", vtok, nv)
		default:
			return p.errorf(line, err, "face index %s out of range (1..%d)", vtok, nv)
		}
		// Texture and normal indices are skipped but must be well formed.
		if rest != "" || strings.HasSuffix(tok, "/") {
			vt, vn, more := strings.Cut(rest, "/")
			if more && strings.Contains(vn, "/") {
				return p.errorf(line, nil, "face vertex %s has more than 3 indices", objQuote(tok))
			}
			if !objOptionalIndex(vt) || !objOptionalIndex(vn) {
				return p.errorf(line, nil, "bad texture or normal index in face vertex %s", objQuote(tok))
			}
		}
		p.face = append(p.face, int32(k))
	}
	if len(p.soup.Tris)+len(p.face)-2 > p.maxTris {
		return p.errorf(line, ErrOBJTooLarge, "more than %d triangles, the most ReadOBJ accepts (MaxOBJTriangles: 13 bytes each in memory, a level far over the build's memory budget)", p.maxTris)
	}
	for i := 1; i+1 < len(p.face); i++ {
		p.soup.Tris = append(p.soup.Tris, [3]int32{p.face[0], p.face[i], p.face[i+1]})
	}
	return nil
}

// objDecimal reports whether tok holds only the characters of a decimal
// floating-point number.
func objDecimal(tok string) bool {
	for i := 0; i < len(tok); i++ {
		switch c := tok[i]; {
		case c >= '0' && c <= '9', c == '.', c == '-', c == '+', c == 'e', c == 'E':
		default:
			return false
		}
	}
	return true
}

// objOptionalIndex reports whether tok is empty or a decimal integer.
func objOptionalIndex(tok string) bool {
	if tok == "" {
		return true
	}
	_, err := strconv.ParseInt(tok, 10, 64)
	return err == nil
}

// WriteOBJ writes s as Wavefront OBJ: a comment line, one `v x y z` line per
// vertex with each coordinate in the shortest decimal form that reads back
// to the same float32 (so ReadOBJ restores the vertices bit for bit), and
// one `f a b c` line per triangle with 1-based indices. Area ids are not
// stored (ReadOBJ gives AreaWalkable). The bytes depend only on s. s must
// pass Validate.
func WriteOBJ(w io.Writer, s *Soup) error {
	if s == nil {
		return errors.New("level: write OBJ: nil soup")
	}
	if err := s.Validate(); err != nil {
		return fmt.Errorf("level: write OBJ: %w", err)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	buf := make([]byte, 0, 128)
	buf = fmt.Appendf(buf, "# navviz level: %d vertices, %d triangles\n", len(s.Verts), len(s.Tris))
	bw.Write(buf)
	for _, v := range s.Verts {
		buf = append(buf[:0], 'v')
		for _, c := range [3]float32{v.X, v.Y, v.Z} {
			buf = append(buf, ' ')
			buf = strconv.AppendFloat(buf, float64(c), 'g', -1, 32)
		}
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	for _, t := range s.Tris {
		buf = append(buf[:0], 'f')
		for _, k := range t {
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(k)+1, 10)
		}
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	// bufio.Writer keeps the first write error; Flush reports it.
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("level: write OBJ: %w", err)
	}
	return nil
}
