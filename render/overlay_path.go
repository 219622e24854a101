package render

import (
	"image/color"
	"math"

	"navviz/core/geom"
	"navviz/core/navmesh"
)

// OverlayPath is the name of PathOverlay: a path between two picked points
// (navviz's Path tool).
const OverlayPath = "path"

// Look of the path overlay.
var (
	pathCorridorFill = color.RGBA{255, 190, 60, 100}
	pathLine         = color.RGBA{255, 230, 40, 255}
	pathCorner       = color.RGBA{255, 140, 0, 255}
	pathStart        = color.RGBA{40, 230, 80, 255}
	pathEnd          = color.RGBA{240, 50, 50, 255}
)

const (
	// pathWidthM is the width of the straight path's ribbon, metres.
	pathWidthM = 0.35
	// pathLiftM lifts the ribbon and the corners above the polygons,
	// metres.
	pathLiftM = 0.08
	// pathMarkM is the side of the square drawn flat under each corner,
	// metres (the GUI sorts triangles with the overlay's bias, points
	// without it).
	pathMarkM = 0.6
	// pathPointPx is the size of the corner points, pixels.
	pathPointPx = 9
)

// PathOverlay returns the overlay "path": the polygons of corridor (as
// query.FindPath gives them) tinted translucent amber over their detail
// triangles, and the straight path pts (metres) as a yellow ribbon
// pathWidthM wide with a centre line, its corners orange, its first point
// green and its last red (points, and flat squares pathMarkM wide). Stale references in corridor are skipped; a nil
// mesh draws only the straight path. It only reads m.
func PathOverlay(m *navmesh.Mesh, corridor []navmesh.PolyRef, pts []geom.Vec3) *Overlay {
	o := surfaceOverlay(OverlayPath)
	o.PointSizePx = pathPointPx
	if m != nil {
		for _, r := range corridor {
			tref, pi, err := m.DecodeRef(r)
			if err != nil {
				continue
			}
			t, err := m.Tile(tref)
			if err != nil {
				continue
			}
			t.PolyTris(pi, func(_ int, a, b, c geom.Vec3, _ uint8) {
				o.Tris = append(o.Tris, Vertex{up(t, a, portalLiftRows), pathCorridorFill},
					Vertex{up(t, b, portalLiftRows), pathCorridorFill}, Vertex{up(t, c, portalLiftRows), pathCorridorFill})
			})
		}
	}
	lift := func(p geom.Vec3) geom.Vec3 { p.Y += pathLiftM; return p }
	for i := 1; i < len(pts); i++ {
		a, b := lift(pts[i-1]), lift(pts[i])
		o.Lines = append(o.Lines, Vertex{a, pathLine}, Vertex{b, pathLine})
		dx, dz := float64(b.X)-float64(a.X), float64(b.Z)-float64(a.Z)
		l := geom.Hypot(dx, dz)
		if !(l > 0) || math.IsInf(l, 0) {
			continue
		}
		// Half the width, across the segment in the XZ plane.
		s := pathWidthM / 2 / l
		off := geom.V3(float32(-dz*s), 0, float32(dx*s))
		a0, a1, b0, b1 := a.Sub(off), a.Add(off), b.Sub(off), b.Add(off)
		o.Tris = append(o.Tris, Vertex{a0, pathLine}, Vertex{b0, pathLine}, Vertex{b1, pathLine},
			Vertex{a0, pathLine}, Vertex{b1, pathLine}, Vertex{a1, pathLine})
	}
	for i, p := range pts {
		col := pathCorner
		switch i {
		case 0:
			col = pathStart
		case len(pts) - 1:
			col = pathEnd
		}
		o.Points = append(o.Points, Vertex{lift(p), col})
		appendMark(o, lift(p), col)
	}
	return o
}

// appendMark adds a flat square pathMarkM wide centred on p.
func appendMark(o *Overlay, p geom.Vec3, col color.RGBA) {
	const h = pathMarkM / 2
	a, b := p.Add(geom.V3(-h, 0, -h)), p.Add(geom.V3(h, 0, -h))
	c, d := p.Add(geom.V3(h, 0, h)), p.Add(geom.V3(-h, 0, h))
	o.Tris = append(o.Tris, Vertex{a, col}, Vertex{b, col}, Vertex{c, col}, Vertex{a, col}, Vertex{c, col}, Vertex{d, col})
}

// PathMarkersOverlay returns the overlay "path" for a path that has only
// its end points picked so far (or no path between them): start green and
// end red, each drawn when set.
func PathMarkersOverlay(start, end *geom.Vec3) *Overlay {
	o := surfaceOverlay(OverlayPath)
	o.PointSizePx = pathPointPx
	if start != nil {
		p := *start
		p.Y += pathLiftM
		o.Points = append(o.Points, Vertex{p, pathStart})
		appendMark(o, p, pathStart)
	}
	if end != nil {
		p := *end
		p.Y += pathLiftM
		o.Points = append(o.Points, Vertex{p, pathEnd})
		appendMark(o, p, pathEnd)
	}
	return o
}
