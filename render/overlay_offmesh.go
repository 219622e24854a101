package render

import (
	"image/color"
	"math"

	"navviz/core/geom"
	"navviz/core/navmesh"
)

// OverlayOffMesh: the cache's off-mesh links (jumps, ladders) as arcs from
// start to end with direction arrows, and rings of their radius round
// both ends.
const OverlayOffMesh = "offmesh"

// Colours of the off-mesh link overlay (straight alpha).
var (
	offMeshBoth     = color.RGBA{60, 220, 255, 255}  // bidirectional
	offMeshOneWay   = color.RGBA{255, 190, 40, 255}  // start to end only
	offMeshSelected = color.RGBA{255, 255, 255, 255} // the selected link
	offMeshRingFade = uint8(170)                     // alpha of the radius rings
)

// Off-mesh link geometry, metres: the arc rises offMeshRiseFrac of the
// link's length above the higher end (at least offMeshMinRiseM), drawn in
// offMeshSegments pieces as a ribbon offMeshRibbonM wide; arrows are
// offMeshArrowFrac of the link's length long, within offMeshArrowM..
// offMeshArrowMaxM; rings have offMeshRingSegments corners.
const (
	offMeshRiseFrac     = 0.25
	offMeshMinRiseM     = 0.5
	offMeshSegments     = 24
	offMeshRibbonM      = 0.12
	offMeshArrowM       = 0.6
	offMeshArrowMaxM    = 5
	offMeshArrowFrac    = 0.06
	offMeshRingSegments = 24
	offMeshLiftM        = 0.05
)

// OffMeshArc returns the points of link l's arc, offMeshSegments+1 of
// them from start to end: a parabola over the straight line between the
// ends, rising to offMeshRiseFrac of its length (at least offMeshMinRiseM)
// at the middle. navviz picks links on these points.
func OffMeshArc(l navmesh.OffMeshLink) []geom.Vec3 {
	a, b := l.StartM, l.EndM
	dx, dy, dz := float64(b.X)-float64(a.X), float64(b.Y)-float64(a.Y), float64(b.Z)-float64(a.Z)
	length := math.Sqrt(float64(dx*dx) + float64(dy*dy) + float64(dz*dz))
	rise := max(offMeshRiseFrac*length, offMeshMinRiseM)
	pts := make([]geom.Vec3, offMeshSegments+1)
	for i := range pts {
		t := float64(i) / offMeshSegments
		h := float64(float64(4*rise) * float64(t*(1-t)))
		pts[i] = geom.Vec3{
			X: float32(float64(a.X) + float64(t*dx)),
			Y: float32(float64(a.Y) + float64(t*dy) + h + offMeshLiftM),
			Z: float32(float64(a.Z) + float64(t*dz)),
		}
	}
	return pts
}

// OffMeshOverlay returns the overlay "offmesh": every link of links as an
// arc (a ribbon with a centre line, OffMeshArc) from its start to its end,
// blue-green when it goes both ways and amber when one way, with an arrow
// along the arc towards the end (and one towards the start on a
// bidirectional link), points at both ends and rings of the link's radius
// round them. The link whose UserID is selected (0: none) is white.
// Invalid links are skipped.
func OffMeshOverlay(links []navmesh.OffMeshLink, selected uint32) *Overlay {
	o := &Overlay{Name: OverlayOffMesh, Visible: true, PointSizePx: 6}
	for _, l := range links {
		if l.Validate() != nil {
			continue
		}
		col := offMeshOneWay
		if l.Bidirectional {
			col = offMeshBoth
		}
		if selected != 0 && l.UserID == selected {
			col = offMeshSelected
		}
		appendOffMesh(o, l, col)
	}
	return o
}

// appendOffMesh draws one link in colour col.
func appendOffMesh(o *Overlay, l navmesh.OffMeshLink, col color.RGBA) {
	pts := OffMeshArc(l)
	for i := 1; i < len(pts); i++ {
		o.Lines = append(o.Lines, Vertex{pts[i-1], col}, Vertex{pts[i], col})
		appendBand(o, pts[i-1], pts[i], offMeshRibbonM, col)
	}
	// Arrows: towards the end at two thirds of the arc; on a
	// bidirectional link also towards the start at one third.
	size := min(max(offMeshArrowFrac*float64(l.EndM.Sub(l.StartM).Len()), offMeshArrowM), offMeshArrowMaxM)
	arrow := func(at, towards int) {
		appendArrow(o, pts[at], pts[towards], size, col)
	}
	n := len(pts) - 1
	arrow(2*n/3, 2*n/3+1)
	if l.Bidirectional {
		arrow(n/3, n/3-1)
	}
	ring := col
	ring.A = offMeshRingFade
	for _, p := range []geom.Vec3{l.StartM, l.EndM} {
		o.Points = append(o.Points, Vertex{p, col})
		appendRing(o, p, l.RadiusM, ring)
	}
}

// sideOf returns a unit vector across direction d: horizontal, at right
// angles to d's horizontal part (the x axis when d is vertical).
func sideOf(d geom.Vec3) (float64, float64) {
	l := geom.Hypot(float64(d.X), float64(d.Z))
	if !(l > 1e-6) {
		return 1, 0
	}
	return -float64(d.Z) / l, float64(d.X) / l
}

// appendBand appends a ribbon w wide from a to b, flat across (horizontal
// side), so that it follows a rising arc.
func appendBand(o *Overlay, a, b geom.Vec3, w float32, col color.RGBA) {
	sx, sz := sideOf(b.Sub(a))
	hx, hz := float32(sx*float64(w)/2), float32(sz*float64(w)/2)
	o.Tris = quad(o.Tris, geom.V3(a.X+hx, a.Y, a.Z+hz), geom.V3(b.X+hx, b.Y, b.Z+hz),
		geom.V3(b.X-hx, b.Y, b.Z-hz), geom.V3(a.X-hx, a.Y, a.Z-hz), col)
}

// appendArrow appends an arrowhead at p pointing towards q (along the
// arc): a triangle size metres long and as wide, flat across.
func appendArrow(o *Overlay, p, q geom.Vec3, size float64, col color.RGBA) {
	d := q.Sub(p)
	l := float64(d.Len())
	if !(l > 1e-6) {
		return
	}
	s := size / l
	tip := geom.Vec3{X: float32(float64(p.X) + float64(float64(d.X)*s)), Y: float32(float64(p.Y) + float64(float64(d.Y)*s)), Z: float32(float64(p.Z) + float64(float64(d.Z)*s))}
	sx, sz := sideOf(d)
	hw := size / 2
	b1 := geom.Vec3{X: float32(float64(p.X) + float64(sx*hw)), Y: p.Y, Z: float32(float64(p.Z) + float64(sz*hw))}
	b2 := geom.Vec3{X: float32(float64(p.X) - float64(sx*hw)), Y: p.Y, Z: float32(float64(p.Z) - float64(sz*hw))}
	o.Tris = append(o.Tris, Vertex{b1, col}, Vertex{tip, col}, Vertex{b2, col})
	o.Lines = append(o.Lines, Vertex{b1, col}, Vertex{tip, col}, Vertex{tip, col}, Vertex{b2, col})
}

// appendRing appends a horizontal circle of radius r round p as lines.
func appendRing(o *Overlay, p geom.Vec3, r float32, col color.RGBA) {
	prev := geom.Vec3{}
	for i := 0; i <= offMeshRingSegments; i++ {
		s, c := geom.SinCos(2 * math.Pi * float64(i) / offMeshRingSegments)
		q := geom.Vec3{X: float32(float64(p.X) + float64(float64(r)*c)), Y: p.Y + offMeshLiftM, Z: float32(float64(p.Z) + float64(float64(r)*s))}
		if i > 0 {
			o.Lines = append(o.Lines, Vertex{prev, col}, Vertex{q, col})
		}
		prev = q
	}
}
