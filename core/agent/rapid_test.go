package agent

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"pgregory.net/rapid"

	"navviz/core/geom"
	"navviz/core/pipeline"
	"navviz/core/voxel"
	"navviz/tilecache"
)

// onPolyToleranceM is how far (horizontally) an agent may stand outside
// the polygon it is on: float32 rounding of points on portals.
const onPolyToleranceM = 1e-3

// edit is one step of a random history.
type edit struct {
	kind    int // editAdd, editRemove, editUpdate, editUpdateAll, editSteps, editLink
	centre  geom.Vec3
	radiusM float32
	n       int // editRemove: index into the live obstacles; editUpdate: tiles; editSteps: steps
}

const (
	editAdd = iota
	editRemove
	editUpdate
	editUpdateAll
	editSteps
	// editLink adds roofLink, or removes it when it is in force.
	editLink
)

func (e edit) String() string {
	return fmt.Sprintf("%s %v r %.2f n %d", [...]string{"add", "remove", "update", "update all", "steps", "link"}[e.kind], e.centre, e.radiusM, e.n)
}

// play runs history on a new cache of the test level and a crowd of cfg,
// calling check after every edit (nil: no check), and returns the crowd.
func play(t fataler, cfg Config, history []edit, check func(i int, e edit, tc *tilecache.Cache, c *Crowd, stale []bool)) *Crowd {
	t.Helper()
	s := pipeline.DefaultSettings()
	s.Partition = pipeline.Layers
	s.DetailSampleDistCells = 0
	tc, err := tilecache.BuildSoup(context.Background(), &s, testSoup(), tilecache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(tc.Mesh(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var live []tilecache.ObstacleID
	var link tilecache.OffMeshLinkID
	for i, e := range history {
		switch e.kind {
		case editLink:
			var err error
			if link != 0 {
				err, link = tc.RemoveOffMeshLink(link), 0
			} else {
				link, err = tc.AddOffMeshLink(roofLink)
			}
			if err != nil {
				t.Fatalf("edit %d %v: %v", i, e, err)
			}
		case editAdd:
			id, err := tc.AddObstacle(voxel.Cylinder(e.centre, e.radiusM, 4))
			if err != nil {
				t.Fatalf("edit %d %v: %v", i, e, err)
			}
			live = append(live, id)
		case editRemove:
			if len(live) == 0 {
				continue
			}
			k := e.n % len(live)
			if err := tc.RemoveObstacle(live[k]); err != nil {
				t.Fatalf("edit %d %v: %v", i, e, err)
			}
			live = append(live[:k], live[k+1:]...)
		case editUpdate, editUpdateAll:
			n := e.n
			if e.kind == editUpdateAll {
				n = tc.QueueLen()
			}
			if _, err := tc.Update(n); err != nil {
				t.Fatalf("edit %d %v: %v", i, e, err)
			}
		}
		// Which agents' corridors the edit made stale, before they step.
		stale := make([]bool, len(c.agents))
		for k := range c.agents {
			stale[k] = !c.agents[k].corridorValid(tc.Mesh())
		}
		steps := 1
		if e.kind == editSteps {
			steps = e.n
		}
		if err := c.Advance(tc.Mesh(), steps); err != nil {
			t.Fatalf("edit %d %v: %v", i, e, err)
		}
		if check != nil {
			check(i, e, tc, c, stale)
		}
	}
	return c
}

// fataler is what testing.TB and *rapid.T share that play uses.
type fataler interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// TestRandomEditHistories is the property of issue 12's acceptance: on
// random histories of obstacles added and removed, an off-mesh link onto
// the platform's roof added and removed (agents cross it), partial and
// full updates and runs of steps, after every Step every agent's remaining
// corridor holds only polygons valid in the current mesh and the agent
// stands on the polygon it believes it is on; an agent whose corridor a
// swap made stale plans again in the first step after it (Replans grows
// by one); and playing the same history again gives the same crowd bit
// for bit.
func TestRandomEditHistories(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		cfg := Config{
			Count:   rapid.IntRange(1, 12).Draw(rt, "count"),
			Seed:    rapid.Uint64().Draw(rt, "seed"),
			Arrival: Arrival(rapid.IntRange(0, 1).Draw(rt, "arrival")),
		}
		if rapid.Bool().Draw(rt, "to the roof") {
			cfg.Target = &roofTarget // only roofLink leads there
		}
		n := rapid.IntRange(1, 25).Draw(rt, "edits")
		history := make([]edit, n)
		for i := range history {
			e := edit{kind: rapid.IntRange(editAdd, editLink).Draw(rt, "kind")}
			switch e.kind {
			case editAdd:
				e.centre = geom.V3(rapid.Float32Range(0, floorM).Draw(rt, "x"), -1, rapid.Float32Range(0, floorM).Draw(rt, "z"))
				e.radiusM = rapid.Float32Range(0.3, 5).Draw(rt, "r")
			case editRemove:
				e.n = rapid.IntRange(0, 100).Draw(rt, "which")
			case editUpdate:
				e.n = rapid.IntRange(1, 4).Draw(rt, "tiles")
			case editSteps:
				e.n = rapid.IntRange(1, 240).Draw(rt, "steps")
			}
			history[i] = e
		}
		replans := make([]int, cfg.Count)
		c := play(rt, cfg, history, func(i int, e edit, tc *tilecache.Cache, c *Crowd, stale []bool) {
			if err := c.CheckRefs(tc.Mesh(), onPolyToleranceM); err != nil {
				rt.Fatalf("after edit %d (%v): %v", i, e, err)
			}
			for k, a := range c.Agents() {
				// Only the first step after an edit can meet a stale
				// corridor: a re-plan is on the current mesh.
				if want := replans[k] + b2i(stale[k]); a.Replans != want {
					rt.Fatalf("after edit %d (%v): agent %d has %d replans, want %d (stale %v)", i, e, k, a.Replans, want, stale[k])
				}
				replans[k] = a.Replans
			}
		})
		again := play(rt, cfg, history, nil)
		if !reflect.DeepEqual(c.Agents(), again.Agents()) {
			rt.Fatal("the same history played twice gave different crowds")
		}
	})
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestEditHistoryCases replays histories TestRandomEditHistories once
// failed on, with its checks.
func TestEditHistoryCases(t *testing.T) {
	for _, tc := range []struct {
		name    string
		cfg     Config
		history []edit
	}{
		// A re-plan from a point on the end of the portal out of the
		// agent's polygon: the agent walks on in the polygon beyond.
		{"start on a portal's end", Config{Count: 2, Seed: 0x2b5d}, []edit{
			{kind: editAdd, centre: geom.V3(7.125, -1, 8.84375), radiusM: 5},
			{kind: editUpdateAll},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			play(t, tc.cfg, tc.history, func(i int, e edit, tc *tilecache.Cache, c *Crowd, _ []bool) {
				if err := c.CheckRefs(tc.Mesh(), onPolyToleranceM); err != nil {
					t.Fatalf("after edit %d (%v): %v", i, e, err)
				}
			})
		})
	}
}
