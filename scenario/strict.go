package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"unicode/utf8"

	"navviz/world"
)

// Caps of a scenario file (docs/scenario.md, "Caps"). They bound what a
// file costs before it is decoded: the steps and every string and list
// in them, so that a step costs at most a few KiB of memory.
const (
	// MaxSteps bounds the steps of a file (a recorded session of an
	// hour's editing holds a few hundred).
	MaxSteps = 10000
	// MaxStringBytes bounds every string of a file (names, notes, file
	// paths) but the description.
	MaxStringBytes = 4096
	// MaxDescriptionBytes bounds the description.
	MaxDescriptionBytes = 64 << 10
	// MaxVolumeCorners bounds a volume's corners (corners_m).
	MaxVolumeCorners = 64
	// MaxFileBytes bounds a scenario file: MaxSteps steps of 1 KiB on
	// average (the steps navviz writes take 60 to 700 bytes; a volume
	// of MaxVolumeCorners corners about 7 KB) and 256 KiB for the
	// header. Load reads no more (internal/readlimit), Parse refuses
	// more, Marshal writes no more.
	MaxFileBytes = MaxSteps*1024 + 256<<10
	// MaxShotPixels bounds the pixels of all the shots of a file together
	// (the runner keeps every picture until they are written): 2^28, 1 GiB
	// as RGBA, four shots of MaxShotPx a side.
	MaxShotPixels = 1 << 28
	// MaxAgentLines bounds the agents the agents steps of a file report
	// together (each reports its whole crowd, about 150 bytes an agent in
	// report.json): 2^18, so the report stays well within MaxReportBytes.
	MaxAgentLines = 1 << 18
)

// listCap is the cap of a list and what its entries are called.
type listCap struct {
	limit int
	unit  string
}

// listCaps bound the lists of a file by their key (checkShape refuses a
// longer list before it is decoded; Validate checks the same).
var listCaps = map[string]listCap{
	"steps":       {MaxSteps, "steps"},
	"corners_m":   {MaxVolumeCorners, "corners"},
	"show":        {len(OverlayNames()), "overlays"},
	"agent_sizes": {world.MaxAgents - 1, "agent sizes"},
}

// checkList checks a list's length against the cap of its key.
func checkList(what, key string, n int) error {
	if c, ok := listCaps[key]; ok && n > c.limit {
		return overCap(what, n, c.unit, c.limit)
	}
	return nil
}

// checkString checks a string's length against limit.
func checkString(what, s string, limit int) error {
	if len(s) > limit {
		return overCap(what, len(s), "bytes", limit)
	}
	return nil
}

// tooLarge is the error of a file over MaxFileBytes.
func tooLarge(n int) error {
	return fmt.Errorf("%d bytes, over the %d-byte limit of a scenario file", n, MaxFileBytes)
}

// utf8BOM is the byte order mark some editors write first; it is skipped.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// overCap is the error of a list or string over its cap.
func overCap(what string, n int, unit string, limit int) error {
	return fmt.Errorf("%s: %d %s, over the cap of %d (docs/scenario.md, Caps)", what, n, unit, limit)
}

// checkText checks the bytes of a scenario file before they are decoded
// and returns the JSON value to decode: the size (MaxFileBytes), UTF-8
// (a leading byte order mark is skipped), the JSON syntax with nothing
// after the value, then the shape (checkShape). Errors are *Error.
func checkText(data []byte, file string) ([]byte, error) {
	if len(data) > MaxFileBytes {
		return nil, &Error{File: file, Err: tooLarge(len(data))}
	}
	data = bytes.TrimPrefix(data, utf8BOM)
	if !utf8.Valid(data) {
		return nil, &Error{File: file, Err: invalidUTF8(data)}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, &Error{File: file, Err: err}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, &Error{File: file, Err: errors.New("unexpected data after the JSON value")}
	}
	if err := checkShape(raw); err != nil {
		err.File = file
		return nil, err
	}
	return raw, nil
}

// invalidUTF8 names the first byte of data that is not UTF-8, with its
// line.
func invalidUTF8(data []byte) error {
	off := 0
	for off < len(data) {
		r, n := utf8.DecodeRune(data[off:])
		if r == utf8.RuneError && n == 1 {
			break
		}
		off += n
	}
	return fmt.Errorf("invalid UTF-8 at byte %d (line %d): a scenario file is UTF-8 text", off, bytes.Count(data[:off], []byte{'\n'})+1)
}

// shape walks a JSON value's tokens against the Go type it decodes into
// (Scenario), checking what encoding/json lets through: duplicate keys
// (it keeps the last), arrays of a fixed size (it drops extra numbers and
// fills missing ones with 0) and, before anything is allocated for them,
// the caps of strings and lists. Values of another type than the field's
// and unknown keys are skipped: the decoder reports them.
type shape struct {
	dec  *json.Decoder
	step int // 1-based step being walked, 0 in the header
}

// checkShape checks data (one valid JSON value) against Scenario's type.
// The error's Step is set when the problem is in a step.
func checkShape(data []byte) *Error {
	sh := &shape{dec: json.NewDecoder(bytes.NewReader(data))}
	sh.dec.UseNumber()
	if err := sh.value(reflect.TypeFor[Scenario](), ""); err != nil {
		return &Error{Step: sh.step, Err: err}
	}
	return nil
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// value checks the next value against type t; path names it in errors.
func (sh *shape) value(t reflect.Type, path string) error {
	tok, err := sh.dec.Token()
	if err != nil {
		return err
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) {
		return sh.skip(tok) // its UnmarshalJSON checks it
	}
	switch tok := tok.(type) {
	case string:
		limit := MaxStringBytes
		if path == "description" {
			limit = MaxDescriptionBytes
		}
		return checkString(path, tok, limit)
	case json.Delim:
		switch {
		case tok == '{' && t.Kind() == reflect.Struct:
			return sh.object(t, path)
		case tok == '[' && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array):
			return sh.array(t, path)
		}
		return sh.skip(tok)
	}
	return nil
}

// object checks the keys and values of an object decoded into struct t,
// after its '{'.
func (sh *shape) object(t reflect.Type, path string) error {
	seen := map[int]string{} // field index: the key that set it
	for sh.dec.More() {
		tok, err := sh.dec.Token()
		if err != nil {
			return err
		}
		key := tok.(string)
		at := join(path, key)
		if err := checkString(at, key, MaxStringBytes); err != nil {
			return err
		}
		i := fieldIndex(t, key)
		if i < 0 {
			if err := sh.value(reflect.TypeFor[any](), at); err != nil {
				return err
			}
			continue
		}
		if first, dup := seen[i]; dup {
			if first == key {
				return fmt.Errorf("%s: duplicate key %q", at, key)
			}
			return fmt.Errorf("%s: key %q repeats %q (keys match in any letter case)", at, key, first)
		}
		seen[i] = key
		if err := sh.value(t.Field(i).Type, at); err != nil {
			return err
		}
	}
	_, err := sh.dec.Token() // '}'
	return err
}

// array checks the elements of an array decoded into slice or array t,
// after its '['. The steps' elements are walked as steps (sh.step).
func (sh *shape) array(t reflect.Type, path string) error {
	key := path[strings.LastIndexByte(path, '.')+1:]
	c, capped := listCaps[key] // c.limit bounds the walk, checkList the count
	n := 0
	for ; sh.dec.More(); n++ {
		switch {
		case capped && n >= c.limit:
			// Count the rest, for the message.
			if err := sh.value(reflect.TypeFor[any](), path); err != nil {
				return err
			}
			continue
		case path == "steps":
			sh.step = n + 1
			if err := sh.value(t.Elem(), ""); err != nil {
				return err
			}
			continue
		}
		if err := sh.value(t.Elem(), fmt.Sprintf("%s[%d]", path, n)); err != nil {
			return err
		}
	}
	if path == "steps" {
		sh.step = 0
	}
	if _, err := sh.dec.Token(); err != nil { // ']'
		return err
	}
	if t.Kind() == reflect.Array && n != t.Len() {
		return fmt.Errorf("%s: %d values, want %d", path, n, t.Len())
	}
	return checkList(path, key, n)
}

// skip consumes the rest of a value whose first token is tok.
func (sh *shape) skip(tok json.Token) error {
	depth := 0
	for {
		if d, ok := tok.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
		}
		if depth == 0 {
			return nil
		}
		var err error
		if tok, err = sh.dec.Token(); err != nil {
			return err
		}
	}
}

// join names key in the object at path.
func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// fieldIndex returns the index of the field of struct t that encoding/json
// decodes key into (its name exactly, else in another letter case), or
// -1.
func fieldIndex(t reflect.Type, key string) int {
	fold := -1
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if name == key {
			return i
		}
		if fold < 0 && strings.EqualFold(name, key) {
			fold = i
		}
	}
	return fold
}
