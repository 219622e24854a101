package pipeline

import (
	"fmt"
	"reflect"

	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/voxel"
)

// TriangleQuery lists the triangles of a soup whose x/z bounding box overlaps
// a box (boundaries touching count), as ascending triangle indices appended
// to dst. level.Chunky implements it. Listing extra triangles is harmless
// (rasterization skips triangles outside the build grid); missing one is a
// bug in the query.
type TriangleQuery interface {
	Query(minX, minZ, maxX, maxZ float32, dst []int32) []int32
}

// Source is the input of the tiled build: a triangle soup (optionally with a
// TriangleQuery such as level.Chunky to find each tile's triangles quickly),
// or a solid heightfield given directly (voxel input). A Source is read-only
// after construction and safe to share between goroutines as long as its
// query is.
type Source struct {
	soup   *level.Soup
	query  TriangleQuery
	voxels *voxel.Heightfield
	bounds geom.Box3
	name   string     // see Named
	spans  *spanCache // the span bounds counted (spanbound.go), shared with the Named copies
}

// NewSoupSource returns a source for soup s. q, when not nil, must index the
// same soup; without it every triangle is tested against every tile (same
// result, slower). The soup is validated: indices in range, one area id
// (0..63) per triangle, vertices finite and within ±voxel.MaxCoordM, at least
// one triangle. The soup must not change afterwards.
func NewSoupSource(s *level.Soup, q TriangleQuery) (*Source, error) {
	if s == nil {
		return nil, fmt.Errorf("pipeline: nil soup")
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if len(s.Tris) == 0 {
		return nil, fmt.Errorf("pipeline: the level has no triangles (%d vertices, no face): nothing to build", len(s.Verts))
	}
	for i, a := range s.Areas {
		if a > voxel.MaxArea {
			return nil, fmt.Errorf("pipeline: triangle %d has area id %d, want 0..%d", i, a, voxel.MaxArea)
		}
	}
	for i, v := range s.Verts {
		if !inCoordRange(v) {
			return nil, fmt.Errorf("pipeline: vertex %d (OBJ index %d) at (%g, %g, %g) is outside ±%d m (voxel.MaxCoordM): move the level nearer the origin or scale it down",
				i, i+1, v.X, v.Y, v.Z, voxel.MaxCoordM)
		}
	}
	if q != nil {
		if v := reflect.ValueOf(q); v.Kind() == reflect.Pointer && v.IsNil() {
			q = nil
		}
	}
	return &Source{soup: s, query: q, bounds: s.Bounds(), spans: &spanCache{}}, nil
}

// NewVoxelSource returns a source for a solid heightfield covering the whole
// level: its columns are the level's cells from h.OriginM, its vertical range
// [OriginM.Y, MaxM.Y] the level's height, and its spans are used with their
// area ids as given (no slope test). h's BorderCells is ignored. h must not
// change afterwards. Building needs settings with h's CellSizeM and
// CellHeightM.
func NewVoxelSource(h *voxel.Heightfield) (*Source, error) {
	if h == nil {
		return nil, fmt.Errorf("pipeline: nil heightfield")
	}
	if err := h.Grid.Validate(); err != nil {
		return nil, err
	}
	return &Source{voxels: h, bounds: geom.Box3{Min: h.OriginM, Max: h.MaxM}, spans: &spanCache{}}, nil
}

func inCoordRange(v geom.Vec3) bool {
	const m = voxel.MaxCoordM
	return v.X >= -m && v.X <= m && v.Y >= -m && v.Y <= m && v.Z >= -m && v.Z <= m
}

// Named returns a copy of src that carries the level's name (a file path
// or a built-in level's name), for errors such as a build's LimitError.
// The name changes nothing built. A nil src gives nil.
func (src *Source) Named(name string) *Source {
	if src == nil {
		return nil
	}
	c := *src
	c.name = name
	return &c
}

// Name returns the name given by Named, or "" (also for a nil src).
func (src *Source) Name() string {
	if src == nil {
		return ""
	}
	return src.name
}

// Bounds returns the level's box: the soup's bounds, or the heightfield's
// OriginM and MaxM.
func (src *Source) Bounds() geom.Box3 {
	if src == nil {
		return geom.Box3{}
	}
	return src.bounds
}

// Soup returns the source's soup (nil for a voxel source).
func (src *Source) Soup() *level.Soup {
	if src == nil {
		return nil
	}
	return src.soup
}

// Voxels returns the source's heightfield (nil for a soup source).
func (src *Source) Voxels() *voxel.Heightfield {
	if src == nil {
		return nil
	}
	return src.voxels
}

// TileGrid returns the tiling of the source's level under settings s: for a
// soup NewTileGrid(s, Bounds()); for a heightfield exactly its columns (its
// cell sizes must equal the settings').
func (src *Source) TileGrid(s *NavSettings) (*TileGrid, error) {
	if src == nil {
		return nil, fmt.Errorf("pipeline: nil Source")
	}
	if src.voxels == nil || s == nil {
		return NewTileGrid(s, src.bounds)
	}
	h := src.voxels
	if h.CellSizeM != s.CellSizeM || h.CellHeightM != s.CellHeightM {
		return nil, fmt.Errorf("pipeline: voxel source cells are %v x %v m, settings say CellSizeM %v, CellHeightM %v",
			h.CellSizeM, h.CellHeightM, s.CellSizeM, s.CellHeightM)
	}
	return newTileGridCells(s, h.OriginM, h.MaxM.Y, h.Width, h.Height)
}
