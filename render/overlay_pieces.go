package render

import (
	"fmt"

	"navviz/core/pipeline"
)

// Per-tile pieces of the stage overlays, so that a caller can keep the
// pieces of unchanged tiles and rebuild only those of tiles that changed:
// the overlay of a tile filter is the concatenation, in b.Tiles order, of
// the pieces of the tiles the filter selects (see TestOverlayPiecesJoin).

// StageOverlay returns the span or mesh overlay called name (SpanOverlay or
// MeshOverlay) of build b for the tiles keep selects; an unknown name is an
// error listing the valid ones.
func StageOverlay(name string, b *pipeline.Build, keep TileFilter) (*Overlay, error) {
	if IsSpanOverlay(name) {
		return SpanOverlay(name, b, keep)
	}
	if IsMeshOverlay(name) {
		return MeshOverlay(name, b, keep)
	}
	return nil, fmt.Errorf("render: unknown stage overlay %q, want one of %v or %v", name, SpanOverlayNames, MeshOverlayNames)
}

// IsPerTileOverlay reports whether the overlay name is drawn tile by tile
// (OverlayPiece applies): every span and mesh overlay except volumes.
func IsPerTileOverlay(name string) bool {
	return (IsSpanOverlay(name) || IsMeshOverlay(name)) && name != OverlayVolumes
}

// OverlayPiece returns the piece of the overlay name (IsPerTileOverlay)
// that the tile at position (tx, tz) of b draws when the overlay shows the
// tiles keep selects (nil: all): what StageOverlay(name, b, keep) holds
// for that tile. keep matters only to the regions overlay, which draws a
// tile's border ring towards the tiles keep leaves out. A position without
// a tile gives an empty piece; an overlay that is not per tile is an error.
func OverlayPiece(name string, b *pipeline.Build, tx, tz int, keep TileFilter) (*Overlay, error) {
	if !IsPerTileOverlay(name) {
		return nil, fmt.Errorf("render: overlay %q is not drawn per tile (want a span or mesh overlay other than %q)", name, OverlayVolumes)
	}
	one := func(x, z int) bool { return x == tx && z == tz }
	if name == OverlayRegions {
		return regionsOverlay(b, one, keep), nil
	}
	return StageOverlay(name, b, one)
}

// JoinOverlayPieces returns an overlay named name holding the triangles,
// lines and points of pieces in order (nil pieces skipped), with the
// visibility, point size and sort bias of the first piece (an empty,
// visible surface overlay when there is none).
func JoinOverlayPieces(name string, pieces []*Overlay) *Overlay {
	o := surfaceOverlay(name)
	nt, nl, np := 0, 0, 0
	first := true
	for _, p := range pieces {
		if p == nil {
			continue
		}
		if first {
			o.Visible, o.PointSizePx = p.Visible, p.PointSizePx
			first = false
		}
		nt, nl, np = nt+len(p.Tris), nl+len(p.Lines), np+len(p.Points)
	}
	o.Tris = make([]Vertex, 0, nt)
	o.Lines = make([]Vertex, 0, nl)
	o.Points = make([]Vertex, 0, np)
	for _, p := range pieces {
		if p != nil {
			o.Tris = append(o.Tris, p.Tris...)
			o.Lines = append(o.Lines, p.Lines...)
			o.Points = append(o.Points, p.Points...)
		}
	}
	return o
}
