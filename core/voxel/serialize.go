package voxel

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/cespare/xxhash/v2"
)

// compactMagic starts a serialized compact heightfield; compactVersion
// follows it.
const (
	compactMagic   = "NVCHF\x00\x00\x00"
	compactVersion = 1
	compactHeader  = 8 + 4*6 + 4*8 + 4 // magic, six u32, eight f32, span count
)

// AppendBinary appends the serialized form of c to b (docs/spans.md,
// "Serialization"): little endian, the magic "NVCHF\0\0\0", version 1,
// Width, Height, BorderCells, WalkableHeightCells, WalkableClimbCells as
// uint32, OriginM, MaxM, CellSizeM, CellHeightM as float32 bits, the span
// count (uint32), every column's span count (uint32, column order), every
// span (Y uint16, H uint8, Con uint32) and every area id (one byte each).
// The bytes depend only on the content, so equal heightfields serialize
// equally.
func (c *CompactHeightfield) AppendBinary(b []byte) ([]byte, error) {
	if c == nil {
		return b, fmt.Errorf("voxel: AppendBinary of a nil compact heightfield")
	}
	n := len(c.Spans)
	if len(c.Areas) != n || len(c.Cells) != c.Width*c.Height {
		return b, fmt.Errorf("voxel: inconsistent compact heightfield: %d spans, %d areas, %d cells for %d x %d",
			n, len(c.Areas), len(c.Cells), c.Width, c.Height)
	}
	size := compactHeader + 4*len(c.Cells) + 7*n + n
	if cap(b)-len(b) < size {
		nb := make([]byte, len(b), len(b)+size)
		copy(nb, b)
		b = nb
	}
	le := binary.LittleEndian
	b = append(b, compactMagic...)
	for _, v := range [...]int{compactVersion, c.Width, c.Height, c.BorderCells, c.WalkableHeightCells, c.WalkableClimbCells} {
		b = le.AppendUint32(b, uint32(v))
	}
	for _, v := range [...]float32{c.OriginM.X, c.OriginM.Y, c.OriginM.Z, c.MaxM.X, c.MaxM.Y, c.MaxM.Z, c.CellSizeM, c.CellHeightM} {
		b = le.AppendUint32(b, math.Float32bits(v))
	}
	b = le.AppendUint32(b, uint32(n))
	for _, cell := range c.Cells {
		b = le.AppendUint32(b, cell.Count)
	}
	for _, s := range c.Spans {
		b = le.AppendUint16(b, s.Y)
		b = append(b, s.H)
		b = le.AppendUint32(b, s.Con)
	}
	b = append(b, c.Areas...)
	return b, nil
}

// MarshalBinary returns the serialized form of c (see AppendBinary).
func (c *CompactHeightfield) MarshalBinary() ([]byte, error) {
	return c.AppendBinary(nil)
}

// Hash returns the xxhash64 of the serialized form of c (0 for an
// inconsistent heightfield, which MarshalBinary rejects).
func (c *CompactHeightfield) Hash() uint64 {
	b, err := c.MarshalBinary()
	if err != nil {
		return 0
	}
	return xxhash.Sum64(b)
}

// UnmarshalBinary replaces c by the heightfield serialized in data. It checks
// the magic, version, grid (Grid.Validate), sizes, column counts, links
// (within MaxLinkLayer and the neighbour column's count, never off the grid)
// and area ids; on error c is unchanged and the error names the bad value.
func (c *CompactHeightfield) UnmarshalBinary(data []byte) error {
	if c == nil {
		return fmt.Errorf("voxel: UnmarshalBinary into a nil compact heightfield")
	}
	if len(data) < compactHeader {
		return fmt.Errorf("voxel: compact heightfield data of %d bytes, want at least %d", len(data), compactHeader)
	}
	if string(data[:8]) != compactMagic {
		return fmt.Errorf("voxel: compact heightfield data has magic %q, want %q", data[:8], compactMagic)
	}
	le := binary.LittleEndian
	u := func(i int) uint32 { return le.Uint32(data[8+4*i:]) }
	f := func(i int) float32 { return math.Float32frombits(le.Uint32(data[8+24+4*i:])) }
	if v := u(0); v != compactVersion {
		return fmt.Errorf("voxel: compact heightfield version %d, want %d", v, compactVersion)
	}
	var d CompactHeightfield
	d.Width, d.Height, d.BorderCells = int(u(1)), int(u(2)), int(u(3))
	d.WalkableHeightCells, d.WalkableClimbCells = int(u(4)), int(u(5))
	d.OriginM.X, d.OriginM.Y, d.OriginM.Z = f(0), f(1), f(2)
	d.MaxM.X, d.MaxM.Y, d.MaxM.Z = f(3), f(4), f(5)
	d.CellSizeM, d.CellHeightM = f(6), f(7)
	if err := d.Grid.Validate(); err != nil {
		return err
	}
	if d.WalkableHeightCells < 1 || d.WalkableHeightCells > MaxClearanceCells {
		return fmt.Errorf("voxel: compact heightfield WalkableHeightCells %d out of range 1..%d", d.WalkableHeightCells, MaxClearanceCells)
	}
	if d.WalkableClimbCells > MaxSpanRow {
		return fmt.Errorf("voxel: compact heightfield WalkableClimbCells %d out of range 0..%d", d.WalkableClimbCells, MaxSpanRow)
	}
	n := int(le.Uint32(data[compactHeader-4:]))
	cols := d.Width * d.Height
	rest := data[compactHeader:]
	if want := 4*cols + 8*n; n > len(rest) || len(rest) != want {
		return fmt.Errorf("voxel: compact heightfield body of %d bytes, want %d for %d columns and %d spans", len(rest), want, cols, n)
	}
	d.Cells = make([]CompactCell, cols)
	total := uint64(0)
	for i := range d.Cells {
		cnt := le.Uint32(rest[4*i:])
		d.Cells[i] = CompactCell{Index: uint32(total), Count: cnt}
		total += uint64(cnt)
		if total > uint64(n) {
			return fmt.Errorf("voxel: compact heightfield column %d count %d exceeds the span count %d", i, cnt, n)
		}
	}
	if total != uint64(n) {
		return fmt.Errorf("voxel: compact heightfield columns hold %d spans, header says %d", total, n)
	}
	rest = rest[4*cols:]
	d.Spans = make([]CompactSpan, n)
	for i := range d.Spans {
		p := rest[7*i:]
		d.Spans[i] = CompactSpan{Y: le.Uint16(p), H: p[2], Con: le.Uint32(p[3:])}
	}
	d.Areas = append([]uint8(nil), rest[7*n:]...)
	for i, a := range d.Areas {
		if a > MaxArea {
			return fmt.Errorf("voxel: compact heightfield span %d has area id %d, want 0..%d", i, a, MaxArea)
		}
	}
	for z := 0; z < d.Height; z++ {
		for x := 0; x < d.Width; x++ {
			cell := d.Cells[x+z*d.Width]
			for i := cell.Index; i < cell.Index+cell.Count; i++ {
				for dir := 0; dir < 4; dir++ {
					l := d.Spans[i].Link(dir)
					if l == NotConnected {
						continue
					}
					nx, nz := x+DirOffsetX[dir], z+DirOffsetZ[dir]
					if nx < 0 || nz < 0 || nx >= d.Width || nz >= d.Height || uint32(l) >= d.Cells[nx+nz*d.Width].Count {
						return fmt.Errorf("voxel: compact heightfield span %d of column (%d, %d) links to span %d in direction %d, which does not exist", i, x, z, l, dir)
					}
				}
			}
		}
	}
	*c = d
	return nil
}
