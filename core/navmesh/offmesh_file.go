package navmesh

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"navviz/internal/readlimit"
)

// The off-mesh link side file of a level (docs/format.md, "Off-mesh link
// file"): plain text, one link a line,
//
//	sx sy sz ex ey ez radius bidir area
//
// start and end in metres, the radius in metres, bidir 1 (both ways) or 0
// (one way), the area id 0..63. Blank lines and lines starting with # are
// skipped. It sits beside the level's OBJ (level.obj → level.offmesh).

// What a valid off-mesh link file can hold, which bounds what is read:
const (
	// MaxOffMeshFileLinks is the most links a file holds.
	MaxOffMeshFileLinks = 1 << 20
	// MaxOffMeshLineBytes is the longest line, a comment too (its newline
	// not counted).
	MaxOffMeshLineBytes = 4096
	// offMeshLineBytes is the room of a link line: seven float32 in their
	// shortest form (at most 14 characters, "-1.1754944e-38"), bidir, a
	// two-digit area, eight blanks and the newline need 110 bytes.
	offMeshLineBytes = 128
	// MaxOffMeshFileBytes is the size bound of a file, 128 MiB: the most
	// links at offMeshLineBytes each (comments and extra blanks share that
	// room). Readers of the file (navmesh build/path --offmesh) refuse a
	// larger one before parsing it (internal/readlimit).
	MaxOffMeshFileBytes = MaxOffMeshFileLinks * offMeshLineBytes
)

// offMeshFields names the fields of a link line, in order.
var offMeshFields = [...]string{"start x", "start y", "start z", "end x", "end y", "end z", "radius", "bidir", "area"}

// ParseOffMeshLinks reads an off-mesh link file from r (name names it in
// errors). Link k of the file (from 1) gets UserID k and the flags
// areaFlags[area] (as a polygon of that area: pass
// pipeline.NavSettings.AreaFlags). A bad line, a line longer than
// MaxOffMeshLineBytes or more than MaxOffMeshFileLinks links is an error
// naming the file and the line (and the field and its value); nothing is
// returned then. An error of r comes back wrapped with name, except a
// *readlimit.TooLargeError, which names the file itself.
func ParseOffMeshLinks(r io.Reader, name string, areaFlags [MaxArea + 1]uint16) ([]OffMeshLink, error) {
	var out []OffMeshLink
	err := readlimit.Records(r, name, "links", MaxOffMeshLineBytes, MaxOffMeshFileLinks, func(_ int, text string) error {
		l, err := parseOffMeshLine(text, areaFlags)
		if err != nil {
			return err
		}
		l.UserID = uint32(len(out) + 1)
		out = append(out, l)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// parseOffMeshLine parses one link line.
func parseOffMeshLine(text string, areaFlags [MaxArea + 1]uint16) (OffMeshLink, error) {
	fields := strings.Fields(text)
	if len(fields) != len(offMeshFields) {
		return OffMeshLink{}, fmt.Errorf("%d fields, want %d: sx sy sz ex ey ez radius bidir area", len(fields), len(offMeshFields))
	}
	var f [7]float32
	for k := range f {
		x, err := strconv.ParseFloat(fields[k], 32)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return OffMeshLink{}, fmt.Errorf("%s %q is not a finite number", offMeshFields[k], fields[k])
		}
		f[k] = float32(x)
	}
	var l OffMeshLink
	l.StartM.X, l.StartM.Y, l.StartM.Z = f[0], f[1], f[2]
	l.EndM.X, l.EndM.Y, l.EndM.Z = f[3], f[4], f[5]
	l.RadiusM = f[6]
	switch fields[7] {
	case "1":
		l.Bidirectional = true
	case "0":
	default:
		return OffMeshLink{}, fmt.Errorf("bidir %q, want 1 (both ways) or 0 (one way)", fields[7])
	}
	area, err := strconv.ParseUint(fields[8], 10, 8)
	if err != nil || area > MaxArea {
		return OffMeshLink{}, fmt.Errorf("area %q, want an integer 0..%d", fields[8], MaxArea)
	}
	l.Area = uint8(area)
	l.Flags = areaFlags[l.Area]
	if err := l.Validate(); err != nil {
		return OffMeshLink{}, err
	}
	return l, nil
}

// FormatOffMeshLinks returns links as an off-mesh link file (one line a
// link, numbers written so that they read back to the same float32 bits;
// flags and user ids are not written).
func FormatOffMeshLinks(links []OffMeshLink) string {
	var b strings.Builder
	b.WriteString("# off-mesh links: sx sy sz ex ey ez radius bidir area\n")
	num := func(v float32) string { return strconv.FormatFloat(float64(v), 'g', -1, 32) }
	for _, l := range links {
		bidir := 0
		if l.Bidirectional {
			bidir = 1
		}
		fmt.Fprintf(&b, "%s %s %s %s %s %s %s %d %d\n", num(l.StartM.X), num(l.StartM.Y), num(l.StartM.Z),
			num(l.EndM.X), num(l.EndM.Y), num(l.EndM.Z), num(l.RadiusM), bidir, l.Area)
	}
	return b.String()
}
