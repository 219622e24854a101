package detour

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"
)

// fastLZEncode is a test encoder of the FastLZ format fastLZDecode reads
// (greedy, the last position of each 3-byte key): level 1 or 2, level 2
// with far matches when the data repeats more than 8 KiB back.
func fastLZEncode(in []byte, level int) []byte {
	var out, lit []byte
	flush := func() {
		for len(lit) > 0 {
			n := min(len(lit), 32)
			out = append(out, byte(n-1))
			out = append(out, lit[:n]...)
			lit = lit[n:]
		}
	}
	maxDist := 8192 // level 1: a 13-bit distance - 1
	if level == 2 {
		maxDist = fastLZFar + 65535
	}
	last := map[[3]byte]int{}
	for i := 0; i < len(in); {
		best, bestAt := 0, 0
		if i+3 <= len(in) {
			k := [3]byte(in[i : i+3])
			if j, ok := last[k]; ok && i-j <= maxDist {
				n := 0
				for i+n < len(in) && in[j+n] == in[i+n] && (level == 2 || n < 264) {
					n++
				}
				best, bestAt = n, j
			}
			last[k] = i
		}
		if best < 3 || (i-bestAt > fastLZFar-1 && best < 5) {
			lit = append(lit, in[i])
			i++
			continue
		}
		flush()
		d := i - bestAt - 1
		far := level == 2 && d >= fastLZFar-1
		top := best - 2
		var ext []byte
		if top >= 7 {
			e := best - 9
			for ; level == 2 && e >= 255; e -= 255 {
				ext = append(ext, 255)
			}
			top, ext = 7, append(ext, byte(e))
		}
		if far {
			d2 := i - bestAt - fastLZFar
			out = append(out, byte(top<<5|31))
			out = append(out, ext...)
			out = append(out, 255, byte(d2>>8), byte(d2))
		} else {
			out = append(out, byte(top<<5|d>>8))
			out = append(out, ext...)
			out = append(out, byte(d))
		}
		i += best
	}
	flush()
	if level == 2 && len(out) > 0 {
		out[0] |= 1 << 5
	}
	return out
}

// fastLZSamples are inputs for round trips: runs, repeats near and far,
// noise.
func fastLZSamples() [][]byte {
	r := rand.New(rand.NewPCG(5, 31))
	noise := make([]byte, 3000)
	for i := range noise {
		noise[i] = byte(r.IntN(256))
	}
	far := append(bytes.Clone(noise), make([]byte, 9000)...)
	far = append(far, noise...) // repeats 12000 bytes back: level 2's far match
	grid := make([]byte, 64*64*3)
	for i := range grid {
		if i%64 > 20 && i%97 < 60 {
			grid[i] = byte(i / 4096 * 7)
		} else {
			grid[i] = 0xff
		}
	}
	return [][]byte{
		{7},
		[]byte("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"),
		bytes.Repeat([]byte("abcabcabd"), 100),
		bytes.Repeat([]byte{0}, 5000),
		noise, far, grid,
	}
}

func TestFastLZRoundTrip(t *testing.T) {
	for _, level := range []int{1, 2} {
		for i, in := range fastLZSamples() {
			enc := fastLZEncode(in, level)
			got, err := fastLZDecode(enc, len(in))
			if err != nil {
				t.Fatalf("level %d sample %d (%d bytes, %d compressed): %v", level, i, len(in), len(enc), err)
			}
			if !bytes.Equal(got, in) {
				t.Errorf("level %d sample %d: round trip differs", level, i)
			}
		}
	}
}

// TestFastLZFarMatch: the level-2 encoding of a far repeat uses the 16-bit
// distance (the sample is smaller compressed than its noise twice).
func TestFastLZFarMatch(t *testing.T) {
	far := fastLZSamples()[5]
	if n := len(fastLZEncode(far, 2)); n > 3400 {
		t.Errorf("level 2 of a 12 KB repeat: %d bytes, want the far match to save the second 3000", n)
	}
}

func TestFastLZErrors(t *testing.T) {
	ok := fastLZEncode(bytes.Repeat([]byte("abcd"), 20), 1)
	for _, c := range []struct {
		name string
		in   []byte
		want int
		msg  string
	}{
		{"empty", nil, 1, "empty"},
		{"level 3", []byte{0x40, 1}, 1, "level 3"},
		{"literal past the end", []byte{5, 1, 2}, 6, "past the end"},
		{"match before the start", []byte{0, 'a', 0x20, 5}, 4, "before the start"},
		{"match byte missing", []byte{0, 'a', 0x20}, 4, "past the end"},
		{"too long", ok, 79, "more than the 79"},
		{"too short", ok, 81, "80 bytes decompressed, want 81"},
		{"level-2 far distance missing", []byte{0x20, 'a', 0x3f, 255}, 9000, "past the end"},
	} {
		_, err := fastLZDecode(c.in, c.want)
		if err == nil || !errors.Is(err, errFastLZ) || !bytes.Contains([]byte(err.Error()), []byte(c.msg)) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.msg)
		}
	}
}

// FuzzFastLZ: decoding never panics nor makes other than the size asked,
// and the test encoder's output of any data decodes back at both levels.
func FuzzFastLZ(f *testing.F) {
	for _, s := range fastLZSamples() {
		f.Add(s[:min(len(s), 4000)], uint16(len(s)))
		f.Add(fastLZEncode(s, 1), uint16(len(s)))
		f.Add(fastLZEncode(s, 2), uint16(len(s)))
	}
	f.Fuzz(func(t *testing.T, data []byte, want uint16) {
		if out, err := fastLZDecode(data, int(want)); err == nil && len(out) != int(want) {
			t.Fatalf("%d bytes decoded, want %d", len(out), want)
		}
		for _, level := range []int{1, 2} {
			out, err := fastLZDecode(fastLZEncode(data, level), len(data))
			if len(data) > 0 && (err != nil || !bytes.Equal(out, data)) {
				t.Fatalf("level %d round trip of %d bytes: %v", level, len(data), err)
			}
		}
	})
}
