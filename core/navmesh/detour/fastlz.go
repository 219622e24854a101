package detour

import (
	"errors"
	"fmt"
)

// errFastLZ is wrapped by every error of fastLZDecode.
var errFastLZ = errors.New("FastLZ data")

// fastLZFar is the distance a level-2 match with a 16-bit extra distance
// starts from (FastLZ's MAX_DISTANCE of level 2, plus one).
const fastLZFar = 8191 + 1

// fastLZDecode decompresses a FastLZ block (levels 1 and 2, the level in
// the top three bits of the first byte, as fastlz_compress writes it) into
// exactly want bytes. The format is a stream of instructions, each led by a
// control byte c:
//
//   - c < 32: a literal run of c+1 bytes follows.
//   - else a match of length (c>>5)+2 at distance ((c&31)<<8) + d + 1, d
//     being a following byte; when c>>5 is 7 the length goes on in the
//     byte(s) before d (level 1: one byte; level 2: bytes while they are
//     255). Level 2 only: d = 255 with c&31 = 31 means the distance is
//     fastLZFar plus the next two bytes (big endian).
//
// The first control byte's top bits are the level, so it is always a
// literal run. Anything reading past the input, reaching before the output
// or making more or fewer than want bytes is an error: Decode never trusts
// the data.
func fastLZDecode(in []byte, want int) ([]byte, error) {
	if len(in) == 0 {
		return nil, fmt.Errorf("%w: empty", errFastLZ)
	}
	level := int(in[0]>>5) + 1
	if level > 2 {
		return nil, fmt.Errorf("%w: level %d in the first byte (%#02x), want 1 or 2", errFastLZ, level, in[0])
	}
	out := make([]byte, 0, want)
	ip := 0
	next := func() (int, error) {
		if ip >= len(in) {
			return 0, fmt.Errorf("%w (level %d): instruction at byte %d runs past the end (%d bytes)", errFastLZ, level, ip, len(in))
		}
		ip++
		return int(in[ip-1]), nil
	}
	ctrl := int(in[0] & 31)
	ip = 1
	for {
		if ctrl < 32 {
			n := ctrl + 1
			if ip+n > len(in) {
				return nil, fmt.Errorf("%w (level %d): literal run of %d bytes at byte %d past the end (%d bytes)", errFastLZ, level, n, ip, len(in))
			}
			if len(out)+n > want {
				return nil, fmt.Errorf("%w (level %d): more than the %d bytes expected", errFastLZ, level, want)
			}
			out = append(out, in[ip:ip+n]...)
			ip += n
		} else {
			n := ctrl>>5 - 1
			dist := (ctrl & 31) << 8
			if n == 6 {
				for {
					b, err := next()
					if err != nil {
						return nil, err
					}
					n += b
					if level == 1 || b != 255 {
						break
					}
				}
			}
			b, err := next()
			if err != nil {
				return nil, err
			}
			dist += b
			if level == 2 && b == 255 && dist == 31<<8+255 {
				hi, err := next()
				if err != nil {
					return nil, err
				}
				lo, err := next()
				if err != nil {
					return nil, err
				}
				dist = fastLZFar - 1 + hi<<8 + lo
			}
			dist++
			n += 3
			if dist > len(out) {
				return nil, fmt.Errorf("%w (level %d): match at byte %d reaches %d bytes back, before the start of the output (%d bytes made)", errFastLZ, level, ip, dist, len(out))
			}
			if len(out)+n > want {
				return nil, fmt.Errorf("%w (level %d): more than the %d bytes expected", errFastLZ, level, want)
			}
			// Byte by byte: a match may overlap what it makes (a run).
			for from := len(out) - dist; n > 0; n-- {
				out = append(out, out[from])
				from++
			}
		}
		if ip >= len(in) {
			break
		}
		ctrl = int(in[ip])
		ip++
	}
	if len(out) != want {
		return nil, fmt.Errorf("%w (level %d): %d bytes decompressed, want %d", errFastLZ, level, len(out), want)
	}
	return out, nil
}
