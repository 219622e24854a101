package scenario

import (
	"fmt"

	"navviz/inspect"
	"navviz/tilecache"
)

// Report is report.json: what a run did, step by step. It holds nothing
// that depends on the clock or the machine, so two runs of one scenario
// give the same bytes (timings are in StepTiming, kept apart).
type Report struct {
	// Scenario is the scenario file's base name.
	Scenario string `json:"scenario"`
	// Level is "NAME seed N" for a built-in level, else the OBJ path as
	// the file gives it.
	Level string `json:"level"`
	// Partition is the settings' region partition.
	Partition string `json:"partition"`
	// Cache reports whether a tile cache was built; TilesX, TilesZ the
	// tile grid.
	Cache  bool `json:"cache"`
	TilesX int  `json:"tiles_x"`
	TilesZ int  `json:"tiles_z"`
	// AgentSizes names the agent sizes, "default" first, when the
	// scenario has several (Scenario.AgentSizes).
	AgentSizes []string `json:"agent_sizes,omitempty"`
	// MeshHash is the content hash of the cache's mesh after the first
	// build (xxhash64 of navmesh.Mesh.MarshalBinary, hex; "" without a
	// cache), FinalMeshHash after the last step run.
	MeshHash      string       `json:"mesh_hash"`
	Steps         []StepReport `json:"steps"`
	FinalMeshHash string       `json:"final_mesh_hash"`
}

// StepReport is what one step did.
type StepReport struct {
	// Step is the step's number (1-based), Kind its kind, Did a sentence.
	Step int    `json:"step"`
	Kind string `json:"kind"`
	Did  string `json:"did"`
	// Queued is the number of tiles queued after the step (with a cache).
	Queued *int `json:"queued,omitempty"`
	// MeshHash is the mesh's content hash after an update, a restore or
	// at a shot.
	MeshHash string `json:"mesh_hash,omitempty"`
	// SnapshotHash is the xxhash64 of a snapshot step's bytes.
	SnapshotHash string `json:"snapshot_hash,omitempty"`
	// ExportHash is the xxhash64 of an export step's file.
	ExportHash string        `json:"export_hash,omitempty"`
	Update     *UpdateReport `json:"update,omitempty"`
	Path       *PathReport   `json:"path,omitempty"`
	Shot       *ShotReport   `json:"shot,omitempty"`
	Agents     *AgentsReport `json:"agents,omitempty"`
}

// UpdateReport is what an update step rebuilt.
type UpdateReport struct {
	// Tiles are the rebuilt tiles in queue order, Remaining the tiles
	// still queued; LayersBuilt and LayersRepaired sum the tiles'.
	Tiles          []TileReport `json:"tiles"`
	Remaining      int          `json:"remaining"`
	LayersBuilt    int          `json:"layers_built"`
	LayersRepaired int          `json:"layers_repaired"`
	// Layers are the inspector's reports of the layers built, with the
	// repair's verdicts (empty when the update built no layer).
	Layers []LayerLine `json:"layers"`
	// Failed are the tiles whose rebuild failed (they left the queue;
	// tilecache.UpdateResult.Failed), absent when none did.
	Failed []FailedTile `json:"failed,omitempty"`
}

// FailedTile is a tile whose rebuild failed: its layer (-1: the whole
// tile) and the error.
type FailedTile struct {
	TX    int    `json:"tx"`
	TZ    int    `json:"tz"`
	Layer int    `json:"layer"`
	Error string `json:"error"`
}

// TileReport is one rebuilt tile (tilecache.TileUpdate).
type TileReport struct {
	TX             int          `json:"tx"`
	TZ             int          `json:"tz"`
	Rebuild        string       `json:"rebuild"`
	LayersBuilt    int          `json:"layers_built"`
	LayersRepaired int          `json:"layers_repaired"`
	RemovedSpans   int          `json:"removed_spans"`
	Swaps          []SwapReport `json:"swaps,omitempty"`
}

// SwapReport is what happened to one layer (tilecache.Swap).
type SwapReport struct {
	Layer     int    `json:"layer"`
	Kind      string `json:"kind"`
	ContentID string `json:"content_id"`
}

// LayerLine is one layer rebuild as the inspector reported it (the fields
// of `navmesh inspect --json`).
type LayerLine struct {
	TX             int    `json:"tx"`
	TZ             int    `json:"tz"`
	Layer          int    `json:"layer"`
	Repaired       bool   `json:"repaired"`
	Precondition   string `json:"precondition"`
	Verdict        string `json:"verdict"`
	Removed        int    `json:"removed"`
	Ring           int    `json:"ring"`
	RegionsRebuilt int    `json:"regions_rebuilt"`
	NewLoops       int    `json:"new_loops"`
	GoneLoops      int    `json:"gone_loops"`
	// Contours is "equal", "DIFFER" (then Diff says where) or "-" (a layer
	// built from scratch: nothing to compare).
	Contours string `json:"contours"`
	Diff     string `json:"diff,omitempty"`
}

// LayerLineOf returns the line of report r.
func LayerLineOf(r *inspect.LayerReport) LayerLine {
	return LayerLine{
		TX: r.TX, TZ: r.TZ, Layer: r.Layer, Repaired: r.Repaired,
		Precondition: r.Precondition, Verdict: r.Verdict,
		Removed: r.Removed, Ring: r.Ring, RegionsRebuilt: r.RegionsRebuilt,
		NewLoops: r.NewLoops, GoneLoops: r.GoneLoops,
		Contours: r.Compare(), Diff: r.Diff,
	}
}

func tileReport(u *tilecache.TileUpdate) TileReport {
	t := TileReport{TX: u.TX, TZ: u.TZ, Rebuild: u.Rebuild.String(), LayersBuilt: u.LayersBuilt,
		LayersRepaired: u.LayersRepaired, RemovedSpans: u.RemovedSpans}
	for _, s := range u.Swaps {
		t.Swaps = append(t.Swaps, SwapReport{Layer: int(s.Layer), Kind: s.Kind.String(), ContentID: fmt.Sprintf("%016x", s.ContentID)})
	}
	return t
}

// PathReport is the path at a path or shot step.
type PathReport struct {
	Found    bool    `json:"found"`
	Corners  int     `json:"corners"`
	Polygons int     `json:"polygons"`
	LengthM  float64 `json:"length_m"`
	Partial  bool    `json:"partial"`
	Error    string  `json:"error,omitempty"`
}

func pathReport(p *Path) *PathReport {
	return &PathReport{Found: p.Points != nil, Corners: len(p.Points), Polygons: len(p.Corridor),
		LengthM: p.LengthM, Partial: p.Partial, Error: p.Err}
}

// summary words the path in a line.
func (p *PathReport) summary() string {
	switch {
	case !p.Found:
		return "no path: " + p.Error
	case p.Partial:
		return fmt.Sprintf("partial path (the end is unreachable), %.2f m, %d corners, %d polygons", p.LengthM, p.Corners, p.Polygons)
	}
	return fmt.Sprintf("path %.2f m, %d corners, %d polygons", p.LengthM, p.Corners, p.Polygons)
}

// ShotReport is a shot step's picture.
type ShotReport struct {
	Name         string   `json:"name"`
	File         string   `json:"file"`
	Width        int      `json:"width"`
	Height       int      `json:"height"`
	Overlays     []string `json:"overlays"`
	Scope        string   `json:"scope"`
	SelectedTile *[2]int  `json:"selected_tile,omitempty"`
}
