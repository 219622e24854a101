// Package render turns navmesh data into pictures without a GPU or a display:
// a Scene of named overlays of coloured 3D triangles, lines and points, a
// Camera (orbit or top-down, perspective or orthographic), and a deterministic
// software z-buffer rasterizer to image.RGBA. The ui package draws the same
// Scene with Ebitengine; cmd/navmesh shot draws it here, headless.
package render

import (
	"image/color"

	"navviz/core/geom"
)

// Vertex is a coloured point in world space (metres).
type Vertex struct {
	Pos geom.Vec3
	Col color.RGBA
}

// Overlay is one switchable layer of a Scene. Tris holds triangles as three
// consecutive vertices, Lines holds segments as two consecutive vertices, and
// Points holds single vertices drawn as squares of PointSizePx pixels.
// Colours are straight (not premultiplied) alpha; alpha below 255 blends.
type Overlay struct {
	Name        string
	Visible     bool
	Tris        []Vertex
	Lines       []Vertex
	Points      []Vertex
	PointSizePx float32
}

// Scene is an ordered list of overlays; later overlays draw over earlier ones
// where depths tie. A nil *Scene has no overlays (Add does nothing on it),
// and nil entries of Overlays are skipped.
type Scene struct {
	Overlays []*Overlay
}

// Overlay returns the overlay with the given name, or nil.
func (s *Scene) Overlay(name string) *Overlay {
	if s == nil {
		return nil
	}
	for _, o := range s.Overlays {
		if o != nil && o.Name == name {
			return o
		}
	}
	return nil
}

// Add appends o, replacing any overlay of the same name in place (keeping its
// position and visibility). A nil overlay or scene: nothing happens.
func (s *Scene) Add(o *Overlay) {
	if s == nil || o == nil {
		return
	}
	for i, old := range s.Overlays {
		if old != nil && old.Name == o.Name {
			o.Visible = old.Visible
			s.Overlays[i] = o
			return
		}
	}
	s.Overlays = append(s.Overlays, o)
}

// SetVisible shows exactly the named overlays (all others hidden). Unknown
// names are returned so the caller can report them.
func (s *Scene) SetVisible(names []string) (unknown []string) {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	if s != nil {
		for _, o := range s.Overlays {
			if o != nil {
				o.Visible = want[o.Name]
				delete(want, o.Name)
			}
		}
	}
	for _, n := range names {
		if want[n] {
			unknown = append(unknown, n)
			want[n] = false // report each unknown name once
		}
	}
	return unknown
}

// Bounds returns the box of every vertex of the visible overlays.
func (s *Scene) Bounds() geom.Box3 {
	b := geom.EmptyBox()
	if s == nil {
		return b
	}
	for _, o := range s.Overlays {
		if o == nil || !o.Visible {
			continue
		}
		for _, vs := range [][]Vertex{o.Tris, o.Lines, o.Points} {
			for _, v := range vs {
				b = b.Extend(v.Pos)
			}
		}
	}
	return b
}
