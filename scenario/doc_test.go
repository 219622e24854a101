package scenario

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestDocOverlayOrder: docs/scenario.md's "Overlays" section lists every
// overlay an overlays step accepts, in the drawing order (OverlayNames).
func TestDocOverlayOrder(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "docs", "scenario.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	start := strings.Index(doc, "### Overlays")
	end := strings.Index(doc[start:], "The scope restricts")
	if start < 0 || end < 0 {
		t.Fatal("no Overlays section with the drawing order")
	}
	names := OverlayNames()
	var listed []string
	for _, m := range regexp.MustCompile("`([a-z-]+)`").FindAllStringSubmatch(doc[start:start+end], -1) {
		if slices.Contains(names, m[1]) {
			listed = append(listed, m[1])
		}
	}
	if !slices.Equal(listed, names) {
		t.Errorf("docs/scenario.md lists the overlays\n%v\nthe drawing order is\n%v", listed, names)
	}
}
