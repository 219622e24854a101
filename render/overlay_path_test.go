package render

import (
	"image/color"
	"testing"

	"navviz/core/geom"
	"navviz/core/navmesh"
	"navviz/core/query"
)

func TestPathOverlay(t *testing.T) {
	m := boxesMesh(t).mesh
	// A corridor between two linked polygons of the first tile with links.
	var a, b navmesh.PolyRef
	for _, tr := range m.Tiles() {
		if ls, _ := m.Links(tr.Poly(0)); len(ls) > 0 {
			a, b = tr.Poly(0), ls[0].Ref
			break
		}
	}
	if a == 0 {
		t.Fatal("no linked polygon")
	}
	pa, _ := query.ClosestPointOnPoly(m, a, geom.Vec3{})
	pb, _ := query.ClosestPointOnPoly(m, b, geom.V3(1000, 0, 1000))
	corridor, err := query.FindPath(m, a, b, pa, pb, nil)
	if err != nil {
		t.Fatal(err)
	}
	pts, err := query.StraightPath(m, pa, pb, corridor)
	if err != nil {
		t.Fatal(err)
	}
	o := PathOverlay(m, corridor, pts)
	if o.Name != OverlayPath || !o.Visible || o.PointSizePx != pathPointPx {
		t.Errorf("header %q %v %v", o.Name, o.Visible, o.PointSizePx)
	}
	corridorTris := len(o.Tris) - 6*(len(pts)-1) - 6*len(pts)
	if corridorTris <= 0 || corridorTris%3 != 0 {
		t.Errorf("%d triangle vertices for %d segments", len(o.Tris), len(pts)-1)
	}
	if len(o.Points) != len(pts) || o.Points[0].Col != pathStart || o.Points[len(pts)-1].Col != pathEnd {
		t.Errorf("points %v for %d corners", o.Points, len(pts))
	}
	if len(o.Lines) != 2*(len(pts)-1) {
		t.Errorf("%d line vertices for %d segments", len(o.Lines), len(pts)-1)
	}
	// Stale refs and a nil mesh draw only the straight path; a repeated
	// point adds no ribbon.
	stale := PathOverlay(m, []navmesh.PolyRef{a + 1<<40}, []geom.Vec3{pa, pa})
	if len(stale.Tris) != 12 || len(stale.Points) != 2 {
		t.Errorf("stale corridor: %d tris %d points", len(stale.Tris), len(stale.Points))
	}
	if n := PathOverlay(nil, corridor, pts); len(n.Tris) != 6*(len(pts)-1)+6*len(pts) {
		t.Errorf("nil mesh: %d tris", len(n.Tris))
	}
	mk := PathMarkersOverlay(&pa, nil)
	if len(mk.Points) != 1 || mk.Points[0].Col != pathStart {
		t.Errorf("markers %v", mk.Points)
	}
	// It rasterizes.
	s := &Scene{}
	s.Add(PolysOverlay(m, nil))
	s.Add(o)
	cam := DefaultCamera()
	cam.TopDown = true
	cam.Frame(s.Bounds())
	img := Rasterize(s, cam, 128, 128, color.RGBA{0, 0, 0, 255})
	yellow := 0
	for i := 0; i < len(img.Pix); i += 4 {
		if img.Pix[i] > 200 && img.Pix[i+1] > 180 && img.Pix[i+2] < 100 {
			yellow++
		}
	}
	if yellow == 0 {
		t.Error("no yellow path pixels")
	}
}
