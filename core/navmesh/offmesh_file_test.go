package navmesh

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"navviz/core/geom"
	"navviz/internal/readlimit"
)

// fileFlags is the area → flags table of the file tests: area a has flags
// a+100.
func fileFlags() [MaxArea + 1]uint16 {
	var f [MaxArea + 1]uint16
	for i := range f {
		f[i] = uint16(i + 100)
	}
	return f
}

func TestParseOffMeshLinks(t *testing.T) {
	text := "# jumps\n\n1 2 3 4 5 6 0.5 1 7\n  -1.25 0 1e3 2 2 2 2 0 0  \n"
	got, err := ParseOffMeshLinks(strings.NewReader(text), "level.offmesh", fileFlags())
	if err != nil {
		t.Fatal(err)
	}
	want := []OffMeshLink{
		{StartM: geom.V3(1, 2, 3), EndM: geom.V3(4, 5, 6), RadiusM: 0.5, Bidirectional: true, Area: 7, Flags: 107, UserID: 1},
		{StartM: geom.V3(-1.25, 0, 1000), EndM: geom.V3(2, 2, 2), RadiusM: 2, Area: 0, Flags: 100, UserID: 2},
	}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	again, err := ParseOffMeshLinks(strings.NewReader(FormatOffMeshLinks(got)), "again", fileFlags())
	if err != nil || len(again) != 2 || again[0] != got[0] || again[1] != got[1] {
		t.Fatalf("formatted links read back as %+v (%v)", again, err)
	}
}

func TestParseOffMeshLinksErrors(t *testing.T) {
	for _, c := range []struct {
		name, text, want string
	}{
		{"fields", "1 2 3 4 5 6 0.5 1\n", "f:1: 8 fields, want 9"},
		{"number", "1 2 x 4 5 6 0.5 1 0\n", `f:1: start z "x" is not a finite number`},
		{"nan", "1 2 3 4 NaN 6 0.5 1 0\n", `f:1: end y "NaN" is not a finite number`},
		{"inf radius", "# c\n1 2 3 4 5 6 +Inf 1 0\n", `f:2: radius "+Inf" is not a finite number`},
		{"zero radius", "1 2 3 4 5 6 0 1 0\n", "f:1: navmesh: off-mesh link radius = 0 m"},
		{"bidir", "1 2 3 4 5 6 1 yes 0\n", `f:1: bidir "yes", want 1 (both ways) or 0 (one way)`},
		{"area", "1 2 3 4 5 6 1 1 64\n", `f:1: area "64", want an integer 0..63`},
		{"area sign", "1 2 3 4 5 6 1 1 -1\n", `f:1: area "-1"`},
		{"far", "1 2 3 4 5 3e6 1 1 0\n", "f:1: navmesh: off-mesh link end z = 3e+06 m"},
		{"long comment", "1 2 3 4 5 6 1 1 0\n# " + strings.Repeat("x", MaxOffMeshLineBytes) + "\n", "f:2: line longer than 4096 bytes"},
		{"long line", strings.Repeat(" ", MaxOffMeshLineBytes) + "1 2 3 4 5 6 1 1 0\n", "f:1: line longer than 4096 bytes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ls, err := ParseOffMeshLinks(strings.NewReader(c.text), "f", fileFlags())
			if err == nil || !strings.Contains(err.Error(), c.want) || ls != nil {
				t.Fatalf("got %v, %v, want an error containing %q", ls, err, c.want)
			}
		})
	}
}

// TestParseOffMeshLinksBounds: a reader's size error comes back as it is
// (it names the file), a line of exactly MaxOffMeshLineBytes is read, and
// more than MaxOffMeshFileLinks links are refused naming the line.
func TestParseOffMeshLinksBounds(t *testing.T) {
	link := "1 2 3 4 5 6 1 1 0\n"
	r := &readlimit.Reader{R: strings.NewReader(strings.Repeat(link, 10)), Path: "big.offmesh", What: "off-mesh link file", LimitBytes: 50}
	_, err := ParseOffMeshLinks(r, "big.offmesh", fileFlags())
	var tl *readlimit.TooLargeError
	if !errors.As(err, &tl) || strings.Count(err.Error(), "big.offmesh") != 1 {
		t.Errorf("over the reader's limit: %v, want its *TooLargeError unwrapped", err)
	}
	exact := strings.Repeat(" ", MaxOffMeshLineBytes-len(link)+1) + link // the newline not counted
	if ls, err := ParseOffMeshLinks(strings.NewReader(exact), "f", fileFlags()); err != nil || len(ls) != 1 {
		t.Errorf("a line of %d bytes: %d links, %v", MaxOffMeshLineBytes, len(ls), err)
	}
	const tiny = -1.1754944e-38 // a float32 of the longest shortest form
	longest := FormatOffMeshLinks([]OffMeshLink{{StartM: geom.V3(tiny, tiny, tiny), EndM: geom.V3(tiny, tiny, tiny), RadiusM: -tiny, Bidirectional: true, Area: 63}})
	longest = longest[strings.Index(longest, "\n")+1:] // the header comment
	if n := len(longest); n > offMeshLineBytes || MaxOffMeshFileBytes != MaxOffMeshFileLinks*offMeshLineBytes {
		t.Errorf("the longest link line is %d bytes, over the %d room of a link", n, offMeshLineBytes)
	}
	if testing.Short() {
		t.Skip("the link count bound reads 1M lines")
	}
	many := strings.Repeat(link, MaxOffMeshFileLinks) + "# c\n" + link
	_, err = ParseOffMeshLinks(strings.NewReader(many), "f", fileFlags())
	if want := fmt.Sprintf("f:%d: more than %d links", MaxOffMeshFileLinks+2, MaxOffMeshFileLinks); err == nil || err.Error() != want {
		t.Errorf("too many links: %v, want %q", err, want)
	}
}

// FuzzParseOffMeshLinks: the parser never panics; what it accepts is
// valid and formats to a file that reads back to the same links.
func FuzzParseOffMeshLinks(f *testing.F) {
	f.Add("1 2 3 4 5 6 0.5 1 7\n")
	f.Add("# c\n\n-1.25 0 1e3 2 2 2 2 0 0\n1 1 1 1 1 1 1e-30 1 63")
	f.Add("1 2 3 4 5 6 0 1 0\n")
	f.Fuzz(func(t *testing.T, text string) {
		ls, err := ParseOffMeshLinks(strings.NewReader(text), "fuzz", fileFlags())
		if err != nil {
			return
		}
		for _, l := range ls {
			if err := l.Validate(); err != nil {
				t.Fatalf("accepted an invalid link: %v", err)
			}
		}
		again, err := ParseOffMeshLinks(strings.NewReader(FormatOffMeshLinks(ls)), "again", fileFlags())
		if err != nil || len(again) != len(ls) {
			t.Fatalf("formatted links do not read back (%v)", err)
		}
		for i := range ls {
			if !sameOffMeshBits(again[i], ls[i]) || again[i].UserID != ls[i].UserID {
				t.Fatalf("link %d reads back as %+v, want %+v", i, again[i], ls[i])
			}
		}
	})
}
