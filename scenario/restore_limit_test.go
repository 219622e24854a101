package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRestoreFileBounded (issue 28, item 2): a restore step reads its file
// with the World's snapshot size limit: /dev/zero (no size known) and a
// sparse file larger than the limit are refused at once with a size error
// naming the limit, instead of being read whole.
func TestRestoreFileBounded(t *testing.T) {
	dir := t.TempDir()
	obj := "v 0 0 0\nv 10 0 0\nv 10 0 10\nv 0 0 10\nf 1 3 2\nf 1 4 3\n"
	if err := os.WriteFile(filepath.Join(dir, "floor.obj"), []byte(obj), 0o644); err != nil {
		t.Fatal(err)
	}
	sparse := filepath.Join(dir, "big.nvtc")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(10 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, file := range []string{"/dev/zero", sparse} {
		if _, err := os.Stat(file); err != nil {
			t.Skip(err)
		}
		src := `{"navviz-scenario": 1, "level": {"obj": "floor.obj"}, "steps": [{"restore": {"file": "` + file + `"}}]}`
		sf := filepath.Join(dir, "r.scenario.json")
		sc, err := Parse([]byte(src), sf)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		_, err = Run(sc, sf)
		if err == nil || !strings.Contains(err.Error(), "snapshot is too large") || !strings.Contains(err.Error(), "limit") {
			t.Errorf("%s: error %v, want a size error naming the limit", file, err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: refused after %v", file, d)
		}
	}
}
