package tilecache

import (
	"bytes"
	"testing"

	"navviz/core/pipeline"
)

// TestFingerprintAreaFlags: the area-to-flags table changes tile bytes, so
// every entry of it enters the settings' canonical encoding (the
// fingerprint, docs/snapshot.md §3).
func TestFingerprintAreaFlags(t *testing.T) {
	def := pipeline.DefaultSettings()
	base := appendSettings(nil, &def)
	for _, tc := range []struct {
		area  int
		flags uint16
	}{{0, 1}, {5, 2}, {63, 0}, {63, 0x8001}} {
		s := pipeline.DefaultSettings()
		s.AreaFlags[tc.area] = tc.flags
		if bytes.Equal(appendSettings(nil, &s), base) {
			t.Errorf("AreaFlags[%d] = %#x leaves the settings encoding unchanged", tc.area, tc.flags)
		}
	}
	s := pipeline.DefaultSettings()
	if !bytes.Equal(appendSettings(nil, &s), base) {
		t.Error("equal settings, different encodings")
	}
}
