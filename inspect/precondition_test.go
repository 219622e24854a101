package inspect

import (
	"os"
	"strings"
	"testing"
)

// TestFailedPreconditionCitesDocs (issue 28, item 15): the sentence shown
// for a failed repair precondition cites a section of the docs users
// have (docs/tilecache.md §11.3, which lists the preconditions), not the
// spec file they have not.
func TestFailedPreconditionCitesDocs(t *testing.T) {
	for _, tc := range []struct {
		r    *LayerReport
		want string
	}{
		{nil, ""},
		{&LayerReport{}, ""},
		{&LayerReport{Precondition: "b"}, "Failed precondition: (b) of the layer repair, docs/tilecache.md §11.3."},
		{&LayerReport{Precondition: "links"}, "Failed precondition: (links) of the layer repair, docs/tilecache.md §11.3."},
	} {
		if got := tc.r.FailedPrecondition(); got != tc.want {
			t.Errorf("FailedPrecondition() = %q, want %q", got, tc.want)
		}
	}
	doc, err := os.ReadFile("../docs/tilecache.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "### 11.3 Removed spans and preconditions") {
		t.Errorf("docs/tilecache.md has no §11.3 on the preconditions, which %s cites", PreconditionsDoc)
	}
}
