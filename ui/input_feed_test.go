package ui

import (
	"image"
	"reflect"
	"testing"

	"github.com/ebitengine/debugui"
)

// TestPointerFeed: a press after a jump of more than pointerJumpPx
// settles debugui (its last pointer position becomes the new one); a
// press without a jump, a jump without a press and the first tick leave
// it alone.
func TestPointerFeed(t *testing.T) {
	lastPos := func(d *debugui.DebugUI) image.Point {
		v := reflect.ValueOf(d).Elem().FieldByName("ctx").FieldByName("lastPointingPos")
		return image.Pt(int(v.FieldByName("X").Int()), int(v.FieldByName("Y").Int()))
	}
	type tick struct {
		p       image.Point
		pressed bool
	}
	for _, tc := range []struct {
		name    string
		ticks   []tick
		settled bool
	}{
		{"first tick", []tick{{image.Pt(100, 100), true}}, false},
		{"press without a jump", []tick{{image.Pt(100, 100), false}, {image.Pt(103, 97), true}}, false},
		{"jump without a press", []tick{{image.Pt(100, 100), false}, {image.Pt(300, 50), false}}, false},
		{"press after a jump", []tick{{image.Pt(100, 100), false}, {image.Pt(300, 50), true}}, true},
		{"press after a small jump", []tick{{image.Pt(100, 100), false}, {image.Pt(100, 104), true}}, true},
	} {
		var d debugui.DebugUI
		var f pointerFeed
		for _, tk := range tc.ticks {
			if err := f.before(&d, tk.p, tk.pressed); err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
		}
		end := tc.ticks[len(tc.ticks)-1].p
		if got := lastPos(&d) == end; got != tc.settled {
			t.Errorf("%s: debugui settled at %v: %v, want %v", tc.name, end, got, tc.settled)
		}
	}
}
