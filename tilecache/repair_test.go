package tilecache

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"pgregory.net/rapid"

	"navviz/core/geom"
	"navviz/core/pipeline"
	"navviz/core/region"
	"navviz/core/voxel"
)

// checkTrace is a Trace that checks every layer it sees against the
// from-scratch stages: a repaired layer's contours must equal the
// from-scratch contours (CompareScratch) and its tile data must equal
// pipeline.BuildLayerMesh's on the same areas. It counts the layers
// repaired and the reasons of those built from scratch.
type checkTrace struct {
	t       testing.TB
	c       *Cache
	compare bool
	layers  int
	repairs int
	reasons [region.NumRepairReasons]int
	failed  string // the first mismatch
	ring    int    // ring spans seen
	removed int
}

func (ct *checkTrace) CompareScratch() bool { return ct.compare }

func (ct *checkTrace) Layer(lt *LayerTrace) {
	ct.layers++
	ct.reasons[lt.Verdict.Reason]++
	ct.ring += len(lt.Ring)
	ct.removed += len(lt.Removed)
	if lt.Repaired != (lt.Verdict.OK() && lt.RepairOn) {
		ct.fail("tile (%d, %d) layer %d: Repaired %v with verdict %v", lt.TX, lt.TZ, lt.Layer, lt.Repaired, lt.Verdict)
	}
	if !lt.Repaired {
		return
	}
	ct.repairs++
	if ct.compare {
		if d := lt.Contours.Diff(lt.Scratch); d != "" {
			ct.fail("tile (%d, %d) layer %d: repaired contours differ from scratch: %s", lt.TX, lt.TZ, lt.Layer, d)
		}
	}
	t := ct.c.tileAt(lt.TX, lt.TZ)
	at, err := ct.c.grid.Place(lt.TX, lt.TZ)
	if err != nil {
		ct.t.Fatal(err)
	}
	var lab region.Labels
	lb, err := pipeline.BuildLayerMesh(&ct.c.settings, at, &t.spans.Grid, lt.View, lt.Areas, &lab)
	if err != nil {
		ct.t.Fatal(err)
	}
	if !bytes.Equal(lb.Data, lt.Data) {
		ct.fail("tile (%d, %d) layer %d: repaired tile data differ from scratch (%d and %d bytes)", lt.TX, lt.TZ, lt.Layer, len(lt.Data), len(lb.Data))
	}
}

func (ct *checkTrace) fail(format string, args ...any) {
	if ct.failed == "" {
		ct.failed = fmt.Sprintf(format, args...)
	}
}

// summary returns the counts as text.
func (ct *checkTrace) summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d layers built: %d repaired, %d from scratch", ct.layers, ct.repairs, ct.layers-ct.repairs)
	for r, n := range ct.reasons {
		if n > 0 && region.RepairReason(r) != region.RepairOK {
			fmt.Fprintf(&b, "; %v: %d", region.RepairReason(r), n)
		}
	}
	return b.String()
}

// randomObstacle returns an obstacle of a random shape and size near p.
func randomObstacle(rng *rand.Rand, p geom.Vec3) voxel.Obstacle {
	f := func(lo, hi float64) float32 { return float32(lo + rng.Float64()*(hi-lo)) }
	p = geom.V3(p.X+f(-2, 2), p.Y, p.Z+f(-2, 2))
	switch rng.IntN(3) {
	case 0:
		return voxel.Cylinder(geom.V3(p.X, p.Y-f(0, 1), p.Z), f(0.1, 3), f(0.5, 3))
	case 1:
		return voxel.Box(geom.V3(p.X-f(0, 3), p.Y-f(0, 1), p.Z-f(0, 3)), geom.V3(p.X+f(0, 3), p.Y+f(0, 2), p.Z+f(0, 3)))
	default:
		return voxel.OrientedBox(p, geom.V3(f(0.1, 4), f(0, 2), f(0.1, 1)), f(-3.2, 3.2))
	}
}

// TestRepairRandomObstacles adds and removes random obstacles of every
// shape on city and dungeon (layer-first settings) and checks, with
// checkTrace, that every layer the repair built equals the from-scratch
// stages: the same contours and the same tile data. It logs how many layer
// builds were repaired and why the others were not.
func TestRepairRandomObstacles(t *testing.T) {
	rounds := 40
	if testing.Short() {
		rounds = 12
	}
	for _, k := range []config{{"city", pipeline.Layers, true}, {"dungeon", pipeline.Layers, true}} {
		t.Run(k.String(), func(t *testing.T) {
			f := getFixture(t, k)
			c := f.reset(t)
			ct := &checkTrace{t: t, c: c, compare: true}
			c.SetTrace(ct)
			defer c.SetTrace(nil)
			pts := walkablePoints(t, c.Mesh())
			rng := rand.New(rand.NewPCG(uint64(len(k.level)), 11))
			var ids []ObstacleID
			for range rounds {
				for range 1 + rng.IntN(3) {
					id, err := c.AddObstacle(randomObstacle(rng, pts[rng.IntN(len(pts))]))
					if err != nil {
						t.Fatal(err)
					}
					ids = append(ids, id)
				}
				if _, err := c.UpdateAll(); err != nil {
					t.Fatal(err)
				}
				for len(ids) > 0 && rng.IntN(3) > 0 {
					i := rng.IntN(len(ids))
					if err := c.RemoveObstacle(ids[i]); err != nil {
						t.Fatal(err)
					}
					ids = append(ids[:i], ids[i+1:]...)
				}
				if _, err := c.UpdateAll(); err != nil {
					t.Fatal(err)
				}
				if ct.failed != "" {
					t.Fatal(ct.failed)
				}
			}
			t.Log(ct.summary())
			if ct.repairs == 0 || ct.repairs == ct.layers {
				t.Errorf("%s: want both repaired and from-scratch layers", ct.summary())
			}
			obs, vols := cacheShapes(c)
			s := withShapes(k.settings(), obs, vols)
			if err := sameTiles(meshTiles(t, c.Mesh()), plainTiles(t, &s, f.src)); err != nil {
				t.Errorf("the repaired mesh differs from a fresh build: %v", err)
			}
		})
	}
}

// TestRepairCityCycle runs the spec's cycle on the city with the trace and
// counts repaired and from-scratch layer builds.
func TestRepairCityCycle(t *testing.T) {
	f := getFixture(t, config{"city", pipeline.Layers, true})
	c := f.reset(t)
	ct := &checkTrace{t: t, c: c, compare: true}
	c.SetTrace(ct)
	defer c.SetTrace(nil)
	var obs []voxel.Obstacle
	for _, p := range CityCyclePoints() {
		obs = append(obs, CycleObstacle(p))
	}
	st, err := c.RunCycle(obs)
	if err != nil {
		t.Fatal(err)
	}
	if ct.failed != "" {
		t.Fatal(ct.failed)
	}
	if st.LayersRepaired != ct.repairs || st.LayersBuilt != ct.layers {
		t.Errorf("cycle stats %+v, trace %s", st, ct.summary())
	}
	t.Logf("city cycle: %s; %.0f removed and %.0f ring spans per layer", ct.summary(),
		float64(ct.removed)/float64(ct.layers), float64(ct.ring)/float64(ct.layers))
}

// TestRepairCityVerdicts puts the cycle's cylinder (radius 1 m, height 2
// m) on random polygons of the city, one at a time (added, UpdateAll,
// removed, UpdateAll), checks every repaired layer against the from-scratch
// stages (checkTrace) and logs how many layer builds were repaired and why
// the others were not: on open street (TestRepairCityCycle) every one is
// repaired; on sidewalks, ramps and roofs an obstacle often cuts a region
// in two, or its pieces meet farther away than the search budget.
func TestRepairCityVerdicts(t *testing.T) {
	n := 150
	if testing.Short() {
		n = 40
	}
	f := getFixture(t, config{"city", pipeline.Layers, true})
	c := f.reset(t)
	ct := &checkTrace{t: t, c: c}
	c.SetTrace(ct)
	defer c.SetTrace(nil)
	pts := walkablePoints(t, c.Mesh())
	rng := rand.New(rand.NewPCG(4, 11))
	for range n {
		id, err := c.AddObstacle(CycleObstacle(pts[rng.IntN(len(pts))]))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.UpdateAll(); err != nil {
			t.Fatal(err)
		}
		if err := c.RemoveObstacle(id); err != nil {
			t.Fatal(err)
		}
		if _, err := c.UpdateAll(); err != nil {
			t.Fatal(err)
		}
	}
	if ct.failed != "" {
		t.Fatal(ct.failed)
	}
	t.Logf("%d cylinders on random city polygons: %s", n, ct.summary())
	if ct.repairs == 0 || ct.reasons[region.ReasonSplit] == 0 || ct.reasons[region.ReasonBudget] == 0 {
		t.Errorf("want repairs, splits and exhausted budgets: %s", ct.summary())
	}
}

// noRepair holds, per config, a second cache built with DisableRepair and
// its initial snapshot.
var noRepair struct {
	sync.Mutex
	m map[config]*fixture
}

// getNoRepair returns the repair-off twin of getFixture(k).
func getNoRepair(t testing.TB, k config) *fixture {
	t.Helper()
	noRepair.Lock()
	defer noRepair.Unlock()
	if f, ok := noRepair.m[k]; ok {
		return f
	}
	src := k.source(t)
	s := k.settings()
	c, err := Build(context.Background(), &s, src, Options{DisableRepair: true})
	if err != nil {
		t.Fatal(err)
	}
	if c.RepairOn() {
		t.Fatal("DisableRepair left the repair on")
	}
	snap, err := c.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if noRepair.m == nil {
		noRepair.m = map[config]*fixture{}
	}
	f := &fixture{cfg: k, cache: c, initial: snap, src: src}
	noRepair.m[k] = f
	return f
}

// TestRepairHistories is the property test of the repair: random histories
// of adding and removing obstacles (and now and then a volume, which turns
// the repair off where it lies), applied to a repairing cache and to one
// with DisableRepair; after every UpdateAll both meshes are the same bytes.
func TestRepairHistories(t *testing.T) {
	defer withRapidChecks(12)()
	for _, k := range []config{{"city", pipeline.Layers, true}, {"dungeon", pipeline.Layers, true}} {
		t.Run(k.String(), func(t *testing.T) {
			f := getFixture(t, k)
			g := getNoRepair(t, k)
			pts := walkablePoints(t, f.cache.Mesh())
			repaired := 0
			rapid.Check(t, func(rt *rapid.T) {
				a, b := f.reset(t), g.reset(t)
				if !a.RepairOn() {
					rt.Fatal("the fixture does not repair")
				}
				seed := rapid.Uint64().Draw(rt, "seed")
				rng := rand.New(rand.NewPCG(seed, 3))
				steps := rapid.IntRange(1, 6).Draw(rt, "steps")
				type pair struct {
					oa, ob ObstacleID
					va, vb VolumeID
				}
				var held []pair
				for range steps {
					switch op := rapid.IntRange(0, 5).Draw(rt, "op"); {
					case op <= 2:
						o := randomObstacle(rng, pts[rapid.IntRange(0, len(pts)-1).Draw(rt, "at")])
						ia, err := a.AddObstacle(o)
						if err != nil {
							rt.Fatal(err)
						}
						ib, err := b.AddObstacle(o)
						if err != nil {
							rt.Fatal(err)
						}
						held = append(held, pair{oa: ia, ob: ib})
					case op == 3:
						p := pts[rapid.IntRange(0, len(pts)-1).Draw(rt, "volume at")]
						v := square(p.X, p.Z, 1.5, p.Y-1, p.Y+1, uint8(rapid.IntRange(0, 5).Draw(rt, "area")))
						ia, err := a.AddVolume(v)
						if err != nil {
							rt.Fatal(err)
						}
						ib, err := b.AddVolume(v)
						if err != nil {
							rt.Fatal(err)
						}
						held = append(held, pair{va: ia, vb: ib})
					default:
						if len(held) == 0 {
							continue
						}
						i := rapid.IntRange(0, len(held)-1).Draw(rt, "remove")
						h := held[i]
						held = append(held[:i], held[i+1:]...)
						if h.oa != 0 {
							if a.RemoveObstacle(h.oa) != nil || b.RemoveObstacle(h.ob) != nil {
								rt.Fatal("remove obstacle")
							}
						} else if a.RemoveVolume(h.va) != nil || b.RemoveVolume(h.vb) != nil {
							rt.Fatal("remove volume")
						}
					}
					ra, err := a.UpdateAll()
					if err != nil {
						rt.Fatal(err)
					}
					if _, err := b.UpdateAll(); err != nil {
						rt.Fatal(err)
					}
					repaired += ra.LayersRepaired()
					if !bytes.Equal(meshBytes(t, a.Mesh()), meshBytes(t, b.Mesh())) {
						rt.Fatalf("meshes differ after %d steps: %v", len(held), sameTiles(meshTiles(t, a.Mesh()), meshTiles(t, b.Mesh())))
					}
				}
			})
			t.Logf("%d layers repaired", repaired)
		})
	}
}

// TestRepairOffOn: turning the repair off and on again changes nothing, and
// a cache without the layer-first path never repairs.
func TestRepairOffOn(t *testing.T) {
	f := getFixture(t, config{"city", pipeline.Layers, true})
	c := f.reset(t)
	p := CityCyclePoints()[5]
	c.SetRepair(false)
	id, err := c.AddObstacle(CycleObstacle(p))
	if err != nil {
		t.Fatal(err)
	}
	r, err := c.UpdateAll()
	c.SetRepair(true)
	if err != nil {
		t.Fatal(err)
	}
	if r.LayersBuilt() == 0 || r.LayersRepaired() != 0 {
		t.Errorf("repair off: %d layers built, %d repaired", r.LayersBuilt(), r.LayersRepaired())
	}
	off := meshTiles(t, c.Mesh())
	if err := c.RemoveObstacle(id); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpdateAll(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.AddObstacle(CycleObstacle(p)); err != nil {
		t.Fatal(err)
	}
	r, err = c.UpdateAll()
	if err != nil {
		t.Fatal(err)
	}
	if r.LayersRepaired() == 0 {
		t.Errorf("repair on: nothing repaired")
	}
	if err := sameTiles(meshTiles(t, c.Mesh()), off); err != nil {
		t.Errorf("repair on and off give different tiles: %v", err)
	}
	g := getFixture(t, config{"city", pipeline.Watershed, false})
	w := g.reset(t)
	if _, err := w.AddObstacle(CycleObstacle(p)); err != nil {
		t.Fatal(err)
	}
	r, err = w.UpdateAll()
	if err != nil {
		t.Fatal(err)
	}
	if r.LayersBuilt() == 0 || r.LayersRepaired() != 0 {
		t.Errorf("general path: %d built, %d repaired", r.LayersBuilt(), r.LayersRepaired())
	}
	g.reset(t)
	f.reset(t)
}

// TestRepairVolumeVerdict: with an area volume in force over a layer, the
// layer is built from scratch (precondition (a)); without it, repaired.
func TestRepairVolumeVerdict(t *testing.T) {
	f := getFixture(t, config{"city", pipeline.Layers, true})
	c := f.reset(t)
	defer f.reset(t)
	ct := &checkTrace{t: t, c: c, compare: true}
	c.SetTrace(ct)
	defer c.SetTrace(nil)
	p := CityCyclePoints()[5]
	vid, err := c.AddVolume(square(p.X+4, p.Z, 1, p.Y-1, p.Y+1, 7))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpdateAll(); err != nil {
		t.Fatal(err)
	}
	before := ct.layers
	if _, err := c.AddObstacle(CycleObstacle(p)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpdateAll(); err != nil {
		t.Fatal(err)
	}
	if ct.layers == before || ct.reasons[region.ReasonVolume] == 0 {
		t.Fatalf("with a volume: %s", ct.summary())
	}
	repairs := ct.repairs
	if err := c.RemoveVolume(vid); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpdateAll(); err != nil {
		t.Fatal(err)
	}
	if ct.repairs == repairs || ct.failed != "" {
		t.Fatalf("without the volume: %s %s", ct.summary(), ct.failed)
	}
	if !strings.HasPrefix((region.Verdict{Reason: region.ReasonVolume}).String(), "(a)") {
		t.Errorf("volume verdict text")
	}
}
