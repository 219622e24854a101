package tilecache

import (
	"fmt"
	"strings"
	"testing"

	"navviz/core/geom"
	"navviz/core/voxel"
)

// TestChecksumErrorHidesBytes (issue 28, item 12): a checksum error says
// only that the checksum did not match; the input's last 8 bytes (the
// stored checksum, for a file that is no snapshot anything, a secret) do
// not appear in it, as text or as a number.
func TestChecksumErrorHidesBytes(t *testing.T) {
	c := buildTwoSquares(t)
	secret := "p4ssw0rd"
	for _, tc := range []struct{ name, data string }{
		{"text file", strings.Repeat("not a snapshot, ", 4) + secret},
		{"snapshot magic", "NVTC" + strings.Repeat("\x00", 40) + secret},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := c.Restore([]byte(tc.data))
			if err == nil || !strings.Contains(err.Error(), "checksum") {
				t.Fatalf("error %v, want a checksum mismatch", err)
			}
			n := uint64(0)
			for i := 7; i >= 0; i-- {
				n = n<<8 | uint64(secret[i])
			}
			for _, leak := range []string{secret, fmt.Sprintf("%x", n), fmt.Sprintf("%#016x", n), fmt.Sprint(n)} {
				if strings.Contains(err.Error(), leak) {
					t.Fatalf("error %q shows the input's last bytes (%s)", err, leak)
				}
			}
		})
	}
}

// TestSnapshotSizeLimit (issue 28, item 2): Restore refuses input over
// the cache's MaxSnapshotBytes before reading it, naming both sizes, and
// Snapshot refuses to write a state that would be larger, so no snapshot
// it writes is refused for its size.
func TestSnapshotSizeLimit(t *testing.T) {
	c := buildTwoSquares(t)
	limit := c.MaxSnapshotBytes()
	if limit < SnapshotBaseBytes || limit != SnapshotBaseBytes+SnapshotTileFactor*c.firstBytes || c.firstBytes == 0 {
		t.Fatalf("MaxSnapshotBytes = %d with %d bytes of first-build tile data", limit, c.firstBytes)
	}
	if (&Cache{}).MaxSnapshotBytes() != 0 {
		t.Error("an unbuilt cache has a snapshot limit")
	}
	before := snapBytes(t, c)
	big := make([]byte, limit+1)
	copy(big, before)
	err := c.Restore(big)
	if want := fmt.Sprintf("snapshot of %d bytes, over this cache's snapshot limit of %d", limit+1, limit); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("Restore of %d bytes: %v, want an error containing %q", limit+1, err, want)
	}
	if err := c.Restore(before); err != nil {
		t.Fatal(err)
	}
	// Enough cylinders to pass the limit (25 bytes each in a snapshot).
	n := int(limit/25) + 1
	for i := range n {
		if _, err := c.AddObstacle(voxel.Cylinder(geom.V3(float32(i%1000)*0.01, -1, 5), 0.1, 0.5)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.Snapshot(); err == nil || !strings.Contains(err.Error(), "over this cache's snapshot limit") {
		t.Fatalf("Snapshot of %d obstacles: %v, want the size limit", n, err)
	}
}
