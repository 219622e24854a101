package tilecache

import (
	"bytes"
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"navviz/core/geom"
	"navviz/core/navmesh"
	"navviz/core/pipeline"
	"navviz/core/query"
	"navviz/core/voxel"
)

// componentLink returns an off-mesh link between the two largest groups
// of linked polygons of m whose first polygons lie in different tiles
// (from the first polygon of the largest to the first of the other, at
// their centres on the surface), and a point on the last polygon of each
// group.
func componentLink(t *testing.T, m *navmesh.Mesh) (link navmesh.OffMeshLink, from, to geom.Vec3) {
	t.Helper()
	seen := map[navmesh.PolyRef]bool{}
	var comps [][]navmesh.PolyRef
	for _, tr := range m.Tiles() {
		tl, _ := m.Tile(tr)
		for i := range tl.Polys {
			r := tr.Poly(uint32(i))
			if seen[r] {
				continue
			}
			seen[r] = true
			c := []navmesh.PolyRef{r}
			for k := 0; k < len(c); k++ {
				ls, _ := m.Links(c[k])
				for _, l := range ls {
					if !seen[l.Ref] && l.Side != navmesh.OffMeshSide {
						seen[l.Ref] = true
						c = append(c, l.Ref)
					}
				}
			}
			comps = append(comps, c)
		}
	}
	big := 0
	for i := range comps {
		if len(comps[i]) > len(comps[big]) {
			big = i
		}
	}
	other := -1
	for i := range comps {
		if i != big && comps[i][0].Tile() != comps[big][0].Tile() && len(comps[i]) >= 4 &&
			(other < 0 || len(comps[i]) > len(comps[other])) {
			other = i
		}
	}
	if other < 0 {
		t.Fatal("no second group of polygons in another tile")
	}
	centre := func(r navmesh.PolyRef) geom.Vec3 {
		tr, i, err := m.DecodeRef(r)
		if err != nil {
			t.Fatal(err)
		}
		tl, _ := m.Tile(tr)
		var c geom.Vec3d
		p := &tl.Polys[i]
		for j := 0; j < int(p.VertCount); j++ {
			v := tl.Verts[p.Verts[j]]
			c.X += float64(v.X) / float64(p.VertCount)
			c.Y += float64(v.Y) / float64(p.VertCount)
			c.Z += float64(v.Z) / float64(p.VertCount)
		}
		q, err := query.ClosestPointOnPoly(m, r, c.F32())
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	a, b := comps[big], comps[other]
	link = navmesh.OffMeshLink{StartM: centre(a[0]), EndM: centre(b[0]), RadiusM: 0.3, Flags: 1, Bidirectional: true}
	return link, centre(a[len(a)-1]), centre(b[len(b)-1])
}

// linksCrossed returns the number of off-mesh link nodes on the path from
// from to to in m, with the path's error (query.ErrPartial when it does
// not arrive).
func linksCrossed(t *testing.T, m *navmesh.Mesh, from, to geom.Vec3) (int, error) {
	t.Helper()
	ext := geom.V3(0.5, 1, 0.5)
	ra, pa, err := query.NearestPoly(m, from, ext)
	if err != nil {
		t.Fatal(err)
	}
	rb, pb, err := query.NearestPoly(m, to, ext)
	if err != nil {
		t.Fatal(err)
	}
	corridor, err := query.FindPath(m, ra, rb, pa, pb, nil)
	n := 0
	for _, r := range corridor {
		if m.IsOffMesh(r) {
			n++
		}
	}
	if err == nil {
		pts, serr := query.StraightPathDetailed(m, pa, pb, corridor, 0)
		if serr != nil {
			t.Fatal(serr)
		}
		marked := 0
		for _, p := range pts {
			if p.Flags&query.PointOffMesh != 0 {
				marked++
			}
		}
		if marked != 2*n {
			t.Fatalf("straight path marks %d off-mesh points for %d links", marked, n)
		}
	}
	return n, err
}

// plainWith returns the tiles of the plain build of the fixture's level
// with the given off-mesh links and obstacles.
func plainWith(t *testing.T, f *fixture, links []navmesh.OffMeshLink, obs []voxel.Obstacle) []posTile {
	t.Helper()
	s := withShapes(f.cfg.settings(), obs, nil)
	b, err := pipeline.BuildLevel(context.Background(), &s, f.src, pipeline.BuildOptions{OffMeshLinks: links})
	if err != nil {
		t.Fatal(err)
	}
	return meshTiles(t, b.Mesh)
}

// TestOffMeshLinkCache is the tile cache's acceptance test of off-mesh
// links on dungeon: a link between two groups of polygons not otherwise
// linked makes the path between them complete once the cache is updated;
// it stays through obstacles coming and going (also over its start,
// which takes it out while the obstacle stands), a snapshot round trip
// and every rebuild, with the mesh's tiles equal to the plain build's
// with the same link and obstacles; removing it takes the path away.
func TestOffMeshLinkCache(t *testing.T) {
	for _, cfg := range []config{{level: "dungeon"}, {level: "dungeon", partition: pipeline.Layers, layerFirst: true}} {
		t.Run(cfg.String(), func(t *testing.T) {
			f := getFixture(t, cfg)
			c := f.reset(t)
			link, from, to := componentLink(t, c.Mesh())
			expect := func(step string, crossed int, partial bool, obs []voxel.Obstacle) {
				t.Helper()
				n, err := linksCrossed(t, c.Mesh(), from, to)
				if partial != errors.Is(err, query.ErrPartial) || !partial && err != nil || n != crossed {
					t.Fatalf("%s: path crosses %d links with error %v, want %d links, partial %v", step, n, err, crossed, partial)
				}
				var links []navmesh.OffMeshLink
				links = append(links, c.OffMeshLinks()...)
				if err := sameTiles(meshTiles(t, c.Mesh()), plainWith(t, f, links, obs)); err != nil {
					t.Fatalf("%s: cache differs from the plain build: %v", step, err)
				}
				if _, _, err := c.Mesh().CheckLinks(); err != nil {
					t.Fatalf("%s: %v", step, err)
				}
			}
			update := func() {
				t.Helper()
				if _, err := c.UpdateAll(); err != nil {
					t.Fatal(err)
				}
			}
			expect("no link", 0, true, nil)
			id, err := c.AddOffMeshLink(link)
			if err != nil {
				t.Fatal(err)
			}
			if c.QueueLen() != 1 {
				t.Fatalf("AddOffMeshLink queued %d tiles, want 1", c.QueueLen())
			}
			update()
			link.UserID = uint32(id)
			expect("link", 1, false, nil)

			// An obstacle beside the start rebuilds its tile; one over the
			// start takes the link out while it stands.
			beside := voxel.Cylinder(geom.V3(link.StartM.X+1.5, link.StartM.Y-0.5, link.StartM.Z), 0.4, 2)
			over := voxel.Cylinder(geom.V3(link.StartM.X, link.StartM.Y-0.5, link.StartM.Z), 1.2, 2)
			ob, err := c.AddObstacle(beside)
			if err != nil {
				t.Fatal(err)
			}
			update()
			expect("obstacle beside", 1, false, []voxel.Obstacle{beside})
			snap := snapBytes(t, c)
			oo, err := c.AddObstacle(over)
			if err != nil {
				t.Fatal(err)
			}
			update()
			if n, err := linksCrossed(t, c.Mesh(), from, to); n != 0 || err == nil {
				t.Fatalf("obstacle over the start: path crosses %d links (%v), want none", n, err)
			}
			for _, o := range []ObstacleID{oo, ob} {
				if err := c.RemoveObstacle(o); err != nil {
					t.Fatal(err)
				}
			}
			update()
			expect("obstacles gone", 1, false, nil)

			// Snapshot round trip: back to the start, then to the
			// snapshot with the link and the obstacle beside it.
			c = f.reset(t)
			expect("reset", 0, true, nil)
			if err := c.Restore(snap); err != nil {
				t.Fatal(err)
			}
			if got := c.OffMeshLinks(); len(got) != 1 || got[0] != link {
				t.Fatalf("restored links %+v, want %+v", got, link)
			}
			expect("restored", 1, false, []voxel.Obstacle{beside})
			if again := snapBytes(t, c); !bytes.Equal(again, snap) {
				t.Fatal("restored cache snapshots differently")
			}

			// Move the link away from its start and back, then remove it.
			moved := link
			moved.StartM, moved.EndM = link.EndM, link.StartM
			if err := c.MoveOffMeshLink(id, moved); err != nil {
				t.Fatal(err)
			}
			update()
			if n, err := linksCrossed(t, c.Mesh(), to, from); n != 1 || err != nil {
				t.Fatalf("moved link: path back crosses %d links (%v), want 1", n, err)
			}
			if err := c.RemoveOffMeshLink(id); err != nil {
				t.Fatal(err)
			}
			update()
			expect("removed", 0, true, []voxel.Obstacle{beside})
			c = f.reset(t)
		})
	}
}

// TestOffMeshLinkCacheErrors: invalid links and unknown ids are errors
// naming the value, and change nothing.
func TestOffMeshLinkCacheErrors(t *testing.T) {
	f := getFixture(t, config{level: "dungeon"})
	c := f.reset(t)
	good, _, _ := componentLink(t, c.Mesh())
	before := snapBytes(t, c)
	for _, tc := range []struct {
		name string
		call func() error
		want string
	}{
		{"zero radius", func() error { l := good; l.RadiusM = 0; _, err := c.AddOffMeshLink(l); return err }, "radius = 0 m"},
		{"nan end", func() error {
			l := good
			l.EndM.Y = float32(math.NaN())
			_, err := c.AddOffMeshLink(l)
			return err
		}, "end y = NaN"},
		{"far start", func() error { l := good; l.StartM.X = 1 << 22; _, err := c.AddOffMeshLink(l); return err }, "start x = 4.194304e+06"},
		{"start outside", func() error { l := good; l.StartM.X = -1000; _, err := c.AddOffMeshLink(l); return err }, "outside the tiles"},
		{"remove unknown", func() error { return c.RemoveOffMeshLink(3) }, "no off-mesh link with id 3"},
		{"move unknown", func() error { return c.MoveOffMeshLink(3, good) }, "no off-mesh link with id 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one naming %q", err, tc.want)
			}
			if !bytes.Equal(snapBytes(t, c), before) {
				t.Fatal("a failed call changed the cache")
			}
		})
	}
	id, err := c.AddOffMeshLink(good)
	if err != nil {
		t.Fatal(err)
	}
	bad := good
	bad.RadiusM = -1
	mid := snapBytes(t, c)
	if err := c.MoveOffMeshLink(id, bad); err == nil || !bytes.Equal(snapBytes(t, c), mid) {
		t.Fatalf("MoveOffMeshLink to an invalid link: %v, or it changed the cache", err)
	}
	f.reset(t)
}
