package tilecache

import (
	"fmt"
	"strings"
	"testing"
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
