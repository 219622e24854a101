package level

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/qmuntal/gltf"

	"navviz/internal/readlimit"
)

// Reading glTF 2.0 levels (.gltf JSON with external or data-URI buffers,
// .glb binary) with github.com/qmuntal/gltf's document types. The reader
// does its own container, buffer and accessor decoding so that every size
// is checked against the bytes actually present before anything is
// allocated; docs/levels.md lists what is read and what is refused.

// MaxGLTFBytes bounds what LoadGLTF reads: the .gltf or .glb file and its
// external buffers together (1 GiB: some 80 million float32 vertices, far
// past a level pipeline's default limits can build).
const MaxGLTFBytes int64 = 1 << 30

// MaxGLTFTriangles and MaxGLTFVertices bound the level a glTF file makes,
// after instancing (a mesh used by n nodes counts n times), and every
// accessor's count: 2^24 each, about 420 MiB of Soup, so that a small file
// holding one mesh under many nodes cannot grow the process without bound.
const (
	MaxGLTFTriangles = 1 << 24
	MaxGLTFVertices  = 1 << 24
)

// GLB container constants (glTF 2.0 §4.4).
const (
	glbMagic     = "glTF"
	glbChunkJSON = 0x4E4F534A
	glbChunkBIN  = 0x004E4942
)

// gltfRefused names the extensions that change how geometry is stored
// and that the reader does not decode, with what to do instead.
var gltfRefused = map[string]string{
	"KHR_draco_mesh_compression": "Draco-compressed meshes are not read; export without Draco compression",
	"EXT_meshopt_compression":    "meshopt-compressed buffers are not read; export without meshopt compression (gltfpack without -c)",
	"KHR_meshopt_compression":    "meshopt-compressed buffers are not read; export without meshopt compression",
}

// gltfNeutralPrefixes are the prefixes of extensions that only change
// looks (materials, textures, lights), so a file requiring them is read.
var gltfNeutralPrefixes = []string{"KHR_materials_", "KHR_texture_", "EXT_texture_", "KHR_lights_punctual"}

// IsGLTF reports whether head, the first bytes of a file, starts a glTF
// asset: the GLB magic "glTF", or a JSON object (after an optional UTF-8
// byte order mark and white space).
func IsGLTF(head []byte) bool {
	if bytes.HasPrefix(head, []byte(glbMagic)) {
		return true
	}
	head = bytes.TrimPrefix(head, []byte(objBOM))
	return bytes.HasPrefix(bytes.TrimLeft(head, " \t\r\n"), []byte("{"))
}

// LoadGLTF reads the glTF 2.0 file (.gltf or .glb) at path; see ReadGLTF.
// External buffers are read from the file's folder; the file and its
// buffers together may hold at most MaxGLTFBytes.
func LoadGLTF(path string) (*Soup, error) {
	data, err := readlimit.ReadFile(path, "glTF file", MaxGLTFBytes)
	if err != nil {
		return nil, fmt.Errorf("level: load glTF: %w", err)
	}
	return readGLTF(data, path, os.DirFS(filepath.Dir(path)), MaxGLTFBytes-int64(len(data)))
}

// ReadGLTF reads a glTF 2.0 asset, JSON or GLB, from data into a Soup.
// name is used in error messages; fsys holds the external buffers, whose
// URIs are resolved relative to it (nil: a file with external buffers is
// refused). External buffers may hold MaxGLTFBytes minus len(data).
//
// The level is every triangle primitive (TRIANGLES, TRIANGLE_STRIP,
// TRIANGLE_FAN; indexed or not) of the default scene (scene 0 when the
// file names none; every root node when it has no scene), each placed by
// the composed transforms of its node and the node's ancestors.
// Triangles keep the file's winding, flipped where a node's transform
// mirrors (negative determinant), as glTF says. Only the vertices the
// triangles use are kept. Point and line primitives, and primitives
// without POSITION, are skipped and counted in Soup.Skipped. Positions may
// be float or, as KHR_mesh_quantization allows, (normalized) byte or
// short; sparse accessors are applied. Every triangle gets AreaWalkable.
//
// A file that requires an extension changing geometry storage (Draco,
// meshopt, any unknown one) is refused, naming it. Malformed input is a
// *ParseError naming name and the element, e.g. `level.glb: mesh 2
// primitive 0 accessor 5: 300 elements of 12 bytes run past the end of
// bufferView 1 (2400 bytes)`. On error the returned soup is nil.
func ReadGLTF(data []byte, name string, fsys fs.FS) (*Soup, error) {
	return readGLTF(data, name, fsys, MaxGLTFBytes-int64(len(data)))
}

func readGLTF(data []byte, name string, fsys fs.FS, budget int64) (*Soup, error) {
	if name == "" {
		name = "glTF input"
	}
	g := &gltfReader{name: name, fsys: fsys, budget: budget}
	if err := g.decode(data); err != nil {
		return nil, err
	}
	if err := g.scene(); err != nil {
		return nil, err
	}
	g.soup.Areas = make([]uint8, len(g.soup.Tris))
	for i := range g.soup.Areas {
		g.soup.Areas[i] = AreaWalkable
	}
	g.soup.Skipped = g.skipped.String()
	return g.soup, nil
}

// gltfReader holds the state of one ReadGLTF call.
type gltfReader struct {
	name        string
	fsys        fs.FS
	budget      int64 // bytes external buffers may still take
	doc         gltf.Document
	raw         gltfRaw
	glb         bool
	bin         []byte        // the GLB BIN chunk (nil: none)
	bufs        [][]byte      // buffer data, loaded on first use
	meshes      [][]*gltfPrim // per mesh, its primitives, read on first use
	done        []bool        // meshes read
	cachedVerts int           // vertices of the meshes read
	soup        *Soup
	skipped     gltfSkipped
}

// gltfRaw holds the values the gltf package would map silently to a
// default when unknown (componentType, mode), as written.
type gltfRaw struct {
	Accessors []struct {
		ComponentType int `json:"componentType"`
		Sparse        *struct {
			Indices struct {
				ComponentType int `json:"componentType"`
			} `json:"indices"`
		} `json:"sparse"`
	} `json:"accessors"`
	Meshes []struct {
		Primitives []struct {
			Mode *int `json:"mode"`
		} `json:"primitives"`
	} `json:"meshes"`
}

// gltfSkipped counts the primitive instances left out of the level.
type gltfSkipped struct{ points, lines, noPosition int }

func (s gltfSkipped) String() string {
	var parts []string
	for _, p := range []struct {
		n    int
		what string
	}{{s.points, "point"}, {s.lines, "line"}, {s.noPosition, "position-less"}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.what))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	n := s.points + s.lines + s.noPosition
	word := "primitives"
	if n == 1 {
		word = "primitive"
	}
	return "skipped " + strings.Join(parts, ", ") + " " + word
}

func (g *gltfReader) errorf(cause error, format string, args ...any) error {
	return &ParseError{Name: g.name, Msg: fmt.Sprintf(format, args...), Err: cause}
}

// decode reads the container and the JSON document and checks the asset
// version and the required extensions.
func (g *gltfReader) decode(data []byte) error {
	js := data
	if bytes.HasPrefix(data, []byte(glbMagic)) {
		var err error
		if js, err = g.container(data); err != nil {
			return err
		}
		g.glb = true
	} else {
		js = bytes.TrimPrefix(js, []byte(objBOM))
		if !IsGLTF(js) {
			return g.errorf(nil, "not a glTF asset: neither the GLB magic \"glTF\" nor a JSON object")
		}
	}
	if err := json.Unmarshal(js, &g.doc); err != nil {
		return g.errorf(err, "not valid glTF JSON: %v", err)
	}
	if err := json.Unmarshal(js, &g.raw); err != nil {
		return g.errorf(err, "not valid glTF JSON: %v", err)
	}
	switch v := g.doc.Asset.Version; {
	case v == "":
		return g.errorf(nil, "not a glTF asset: no asset.version")
	case !strings.HasPrefix(v, "2."):
		return g.errorf(nil, "glTF version %q is not read (want 2.x)", v)
	}
	for _, ext := range g.doc.ExtensionsRequired {
		if why, ok := gltfRefused[ext]; ok {
			return g.errorf(nil, "requires extension %s: %s", ext, why)
		}
		if !gltfNeutral(ext) {
			return g.errorf(nil, "requires extension %s, which is not read", ext)
		}
	}
	g.bufs = make([][]byte, len(g.doc.Buffers))
	g.meshes = make([][]*gltfPrim, len(g.doc.Meshes))
	g.done = make([]bool, len(g.doc.Meshes))
	g.soup = &Soup{}
	return nil
}

// gltfNeutral reports whether a required extension leaves positions and
// topology as the core spec stores them.
func gltfNeutral(ext string) bool {
	if ext == "KHR_mesh_quantization" {
		return true
	}
	for _, p := range gltfNeutralPrefixes {
		if strings.HasPrefix(ext, p) {
			return true
		}
	}
	return false
}

// container splits a GLB file: it returns the JSON chunk and keeps the
// BIN chunk, if any.
func (g *gltfReader) container(data []byte) ([]byte, error) {
	if len(data) < 12 {
		return nil, g.errorf(nil, "GLB header cut short: %d bytes, want 12", len(data))
	}
	if v := binary.LittleEndian.Uint32(data[4:]); v != 2 {
		return nil, g.errorf(nil, "GLB version %d is not read (want 2)", v)
	}
	length := int64(binary.LittleEndian.Uint32(data[8:]))
	if length > int64(len(data)) {
		return nil, g.errorf(nil, "GLB header says %d bytes but the file has %d", length, len(data))
	}
	data = data[:length]
	var js []byte
	for off, i := int64(12), 0; off < length; i++ {
		if length-off < 8 {
			return nil, g.errorf(nil, "GLB chunk %d header at byte %d cut short", i, off)
		}
		n := int64(binary.LittleEndian.Uint32(data[off:]))
		typ := binary.LittleEndian.Uint32(data[off+4:])
		if n > length-off-8 {
			return nil, g.errorf(nil, "GLB chunk %d at byte %d says %d bytes, only %d follow", i, off, n, length-off-8)
		}
		body := data[off+8 : off+8+n]
		switch {
		case i == 0 && typ != glbChunkJSON:
			return nil, g.errorf(nil, "GLB chunk 0 is of type 0x%08x, want JSON (0x%08x)", typ, glbChunkJSON)
		case i == 0:
			js = body
		case i == 1 && typ == glbChunkBIN:
			g.bin = body
		}
		// Other chunks are ignored, as the spec says.
		off += 8 + n
	}
	if js == nil {
		return nil, g.errorf(nil, "GLB file has no JSON chunk")
	}
	return js, nil
}

// buffer returns the data of buffer i, loading it on first use: the GLB
// BIN chunk, a base64 data URI or a file of fsys.
func (g *gltfReader) buffer(i int) ([]byte, error) {
	if i < 0 || i >= len(g.doc.Buffers) {
		return nil, fmt.Errorf("buffer %d does not exist (%d buffers)", i, len(g.doc.Buffers))
	}
	if g.bufs[i] != nil {
		return g.bufs[i], nil
	}
	b := g.doc.Buffers[i]
	n := b.ByteLength
	if n < 0 {
		return nil, fmt.Errorf("buffer %d: byteLength %d is negative", i, n)
	}
	var data []byte
	switch uri := b.URI; {
	case uri == "" && i == 0 && g.glb:
		if g.bin == nil {
			return nil, fmt.Errorf("buffer 0 is the GLB BIN chunk, but the file has none")
		}
		data = g.bin
	case uri == "":
		why := ""
		if _, ok := b.Extensions["EXT_meshopt_compression"]; ok {
			why = " (a meshopt fallback buffer: EXT_meshopt_compression is not read)"
		}
		return nil, fmt.Errorf("buffer %d has no uri%s", i, why)
	case strings.HasPrefix(uri, "data:"):
		meta, enc, ok := strings.Cut(uri[len("data:"):], ",")
		if !ok || !strings.HasSuffix(meta, ";base64") {
			return nil, fmt.Errorf("buffer %d: data URI is not base64 (%s)", i, objQuote(uri))
		}
		var err error
		if data, err = base64.StdEncoding.DecodeString(enc); err != nil {
			return nil, fmt.Errorf("buffer %d: bad base64 in data URI: %w", i, err)
		}
	default:
		var err error
		if data, err = g.external(i, uri, n); err != nil {
			return nil, err
		}
	}
	if len(data) < n {
		return nil, fmt.Errorf("buffer %d: byteLength %d but it holds %d bytes", i, n, len(data))
	}
	g.bufs[i] = data[:n:n]
	return g.bufs[i], nil
}

// external reads n bytes of the file uri names, relative to fsys; a URI
// with a scheme, an absolute path or one leading out of fsys is refused.
func (g *gltfReader) external(i int, uri string, n int) ([]byte, error) {
	p, err := url.PathUnescape(strings.ReplaceAll(uri, `\`, "/"))
	if err != nil || strings.Contains(strings.SplitN(p, "/", 2)[0], ":") {
		return nil, fmt.Errorf("buffer %d: uri %s is not a relative file path (only files beside the glTF are read)", i, objQuote(uri))
	}
	if p = path.Clean(p); !fs.ValidPath(p) {
		return nil, fmt.Errorf("buffer %d: uri %s leads out of the glTF's folder", i, objQuote(uri))
	}
	if g.fsys == nil {
		return nil, fmt.Errorf("buffer %d: external file %s but no folder to read it from", i, objQuote(uri))
	}
	if int64(n) > g.budget {
		return nil, fmt.Errorf("buffer %d (%s): %w", i, p, &readlimit.TooLargeError{Path: p, What: "glTF buffer", SizeBytes: int64(n), LimitBytes: max(g.budget, 0)})
	}
	f, err := g.fsys.Open(p)
	if err != nil {
		return nil, fmt.Errorf("buffer %d: %w", i, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, int64(n)))
	if err != nil {
		return nil, fmt.Errorf("buffer %d (%s): %w", i, p, err)
	}
	g.budget -= int64(len(data))
	return data, nil
}
