package tilecache

import (
	"encoding/binary"
	"math"

	"github.com/cespare/xxhash/v2"

	"navviz/core/geom"
	"navviz/core/pipeline"
	"navviz/core/voxel"
)

// fingerprintMagic starts the bytes the fingerprint hashes
// (docs/snapshot.md, "Fingerprint").
const fingerprintMagic = "NVTCFP01"

// fingerprint returns the xxhash64 of the canonical encoding of the settings
// and the geometry of src (docs/snapshot.md, "Fingerprint"). Two caches with
// equal fingerprints hold the same cached tiles and first-build tile data.
func fingerprint(s *pipeline.NavSettings, src *pipeline.Source) uint64 {
	h := xxhash.New()
	b := appendSettings([]byte(fingerprintMagic), s)
	h.Write(b)
	b = b[:0]
	le := binary.LittleEndian
	flush := func() {
		if len(b) >= 1<<16 {
			h.Write(b)
			b = b[:0]
		}
	}
	if soup := src.Soup(); soup != nil {
		b = append(b, 'S')
		b = le.AppendUint32(b, uint32(len(soup.Verts)))
		for _, v := range soup.Verts {
			b = appendVec(b, v)
			flush()
		}
		b = le.AppendUint32(b, uint32(len(soup.Tris)))
		for i, t := range soup.Tris {
			b = le.AppendUint32(b, uint32(t[0]))
			b = le.AppendUint32(b, uint32(t[1]))
			b = le.AppendUint32(b, uint32(t[2]))
			b = append(b, soup.Areas[i])
			flush()
		}
	} else if hf := src.Voxels(); hf != nil {
		b = append(b, 'V')
		g := &hf.Grid
		b = le.AppendUint32(b, uint32(g.Width))
		b = le.AppendUint32(b, uint32(g.Height))
		b = appendVec(b, g.OriginM)
		b = appendVec(b, g.MaxM)
		b = appendF32(b, g.CellSizeM)
		b = appendF32(b, g.CellHeightM)
		var col []voxel.Span
		for z := 0; z < g.Height; z++ {
			for x := 0; x < g.Width; x++ {
				col = hf.AppendColumn(col[:0], x, z)
				b = le.AppendUint32(b, uint32(len(col)))
				for _, sp := range col {
					b = le.AppendUint16(b, sp.MinRow)
					b = le.AppendUint16(b, sp.MaxRow)
					b = append(b, sp.Area)
				}
				flush()
			}
		}
	}
	h.Write(b)
	return h.Sum64()
}

// appendSettings appends the canonical encoding of s: every field in
// declaration order (float32 as bits, ints as int64, the partition as a
// byte), then the volumes (area, y range, corners) and the obstacles (shape
// and the shape's own numbers, see appendObstacle), then the 64 area
// flags.
func appendSettings(b []byte, s *pipeline.NavSettings) []byte {
	le := binary.LittleEndian
	for _, v := range [...]float32{s.CellSizeM, s.CellHeightM, s.AgentHeightM, s.AgentRadiusM, s.AgentMaxClimbM, s.AgentMaxSlopeDeg} {
		b = appendF32(b, v)
	}
	b = le.AppendUint64(b, uint64(int64(s.TileSizeCells)))
	b = append(b, byte(s.Partition))
	b = le.AppendUint64(b, uint64(int64(s.RegionMinSizeCells)))
	b = le.AppendUint64(b, uint64(int64(s.RegionMergeSizeCells)))
	b = appendF32(b, s.EdgeMaxLenM)
	b = appendF32(b, s.EdgeMaxErrorCells)
	b = le.AppendUint64(b, uint64(int64(s.VertsPerPoly)))
	b = appendF32(b, s.DetailSampleDistCells)
	b = appendF32(b, s.DetailSampleMaxErrorCells)
	b = le.AppendUint32(b, uint32(len(s.Volumes)))
	for i := range s.Volumes {
		b = appendVolume(b, &s.Volumes[i])
	}
	b = le.AppendUint32(b, uint32(len(s.Obstacles)))
	for i := range s.Obstacles {
		b = appendObstacle(b, &s.Obstacles[i])
	}
	for _, f := range s.AreaFlags {
		b = le.AppendUint16(b, f)
	}
	return b
}

func appendF32(b []byte, v float32) []byte {
	return binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
}

func appendVec(b []byte, v geom.Vec3) []byte {
	return appendF32(appendF32(appendF32(b, v.X), v.Y), v.Z)
}

// obstacleFloats returns the numbers of o's shape in the order the snapshot
// stores them (docs/snapshot.md): cylinder base x, y, z, radius, height; box
// min x, y, z, max x, y, z; oriented box centre x, y, z, half sizes x, y, z,
// yaw.
func obstacleFloats(o *voxel.Obstacle) []float32 {
	switch o.Shape {
	case voxel.ShapeCylinder:
		return []float32{o.CentreM.X, o.CentreM.Y, o.CentreM.Z, o.RadiusM, o.HeightM}
	case voxel.ShapeBox:
		return []float32{o.MinM.X, o.MinM.Y, o.MinM.Z, o.MaxM.X, o.MaxM.Y, o.MaxM.Z}
	case voxel.ShapeOrientedBox:
		return []float32{o.CentreM.X, o.CentreM.Y, o.CentreM.Z, o.HalfM.X, o.HalfM.Y, o.HalfM.Z, o.YawRad}
	}
	return nil
}

// obstacleFloatCount returns the number of floats of a shape (0 for an
// unknown one).
func obstacleFloatCount(s voxel.ObstacleShape) int {
	switch s {
	case voxel.ShapeCylinder:
		return 5
	case voxel.ShapeBox:
		return 6
	case voxel.ShapeOrientedBox:
		return 7
	}
	return 0
}

// obstacleFromFloats is the inverse of obstacleFloats.
func obstacleFromFloats(s voxel.ObstacleShape, f []float32) voxel.Obstacle {
	switch s {
	case voxel.ShapeCylinder:
		return voxel.Cylinder(geom.V3(f[0], f[1], f[2]), f[3], f[4])
	case voxel.ShapeBox:
		return voxel.Box(geom.V3(f[0], f[1], f[2]), geom.V3(f[3], f[4], f[5]))
	case voxel.ShapeOrientedBox:
		return voxel.OrientedBox(geom.V3(f[0], f[1], f[2]), geom.V3(f[3], f[4], f[5]), f[6])
	}
	return voxel.Obstacle{Shape: s}
}

// appendObstacle appends u8 shape and the shape's floats.
func appendObstacle(b []byte, o *voxel.Obstacle) []byte {
	b = append(b, byte(o.Shape))
	for _, v := range obstacleFloats(o) {
		b = appendF32(b, v)
	}
	return b
}

// appendVolume appends u8 area, f32 MinYM, f32 MaxYM, u32 corner count and
// the corners (f32 x, f32 z).
func appendVolume(b []byte, v *voxel.ConvexVolume) []byte {
	b = append(b, v.Area)
	b = appendF32(b, v.MinYM)
	b = appendF32(b, v.MaxYM)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(v.VertsXZ)))
	for _, p := range v.VertsXZ {
		b = appendF32(appendF32(b, p[0]), p[1])
	}
	return b
}
