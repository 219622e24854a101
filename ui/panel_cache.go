package ui

import (
	"fmt"
	"strings"

	"github.com/ebitengine/debugui"

	"navviz/core/level"
	"navviz/tilecache"
	"navviz/ui/session"
)

// The Cache panel: building the cache, the Tools section (the tools' own
// rows are theirs: tool_*.go), Update, Snapshot and undo.

// cacheUI is the Game's part of the tile cache: the background builds, the
// snapshot dialogs and the demo.
type cacheUI struct {
	runner    *session.CacheRunner
	buildSoup *level.Soup // the level the running build is of
	answers   chan cacheDialogAnswer
	dialog    bool   // a Cache panel file dialog is open
	pathField string // nodialog builds: the snapshot path
	demo      demoStage
	// autoSoup is the level Options.AutoCache last started a build for;
	// autoPreset is set once the obstacle preset has been applied.
	autoSoup   *level.Soup
	autoPreset bool
	// nums are the texts of the panel's number fields (number_field.go).
	nums numberFields
}

// ensureCacheUI makes the runner and the channel on first use.
func (g *Game) ensureCacheUI() {
	if g.cache.runner == nil {
		g.cache.runner = session.NewCacheRunner()
		g.cache.answers = make(chan cacheDialogAnswer, 1)
	}
}

// cacheStatusLines is the height of the Cache tab's status area.
const cacheStatusLines = 5

// cachePanel is the Cache tab: building the cache, the update controls,
// snapshots and undo, then what they report (texts that grow come last:
// nothing clickable moves when they change).
func (g *Game) cachePanel(ctx *debugui.Context) {
	g.ensureCacheUI()
	a := g.App
	c := a.CacheView()
	running, done, total := g.cache.runner.Progress()
	var status []string
	switch {
	case running:
		status = append(status, "Building the cache "+session.ProgressBar(done, total, 20))
	case !c.Has:
		status = append(status, "No tile cache. Build cache uses the Build tab's settings.")
	default:
		s := c.Settings
		status = append(status, fmt.Sprintf("Cache of %s: %d of %d tiles cached, built in %s; partition %s, detail sample %g cells, obstacle growth %.2f m.",
			session.DisplayName(a.CacheLevel), c.CachedTiles, c.Grid.TileCount(), fmtDur(a.CacheBuildTime), s.Partition, s.DetailSampleDistCells, c.GrowthM))
		if len(c.Agents) > 1 {
			status = append(status, fmt.Sprintf("%d agent sizes (%s); showing the mesh of %q (Agent sizes below).", len(c.Agents), session.AgentNames(c.Agents), c.Agents[c.Agent].Name))
		}
		if len(c.Agents) > 0 && settingsDiffer(s, c.Agents[c.Agent].Settings(a.Settings())) {
			status = append(status, "The Build tab's settings differ from the cache's: Build cache again to use them.")
		}
	}
	if busy, queued := a.CacheBusy(); busy {
		status = append(status, fmt.Sprintf("Updating… (%s waiting)", session.Plural(queued, "command")))
	}
	col := statusTextColor
	if a.CacheErr() != "" {
		status, col = append([]string{"Cache build failed: " + a.CacheErr()}, status...), errorColour
	}
	fixedText(ctx, cacheStatusLines, strings.Join(status, "\n"), col)
	ctx.SetGridLayout([]int{-1, -1}, nil)
	ctx.Button("Obstacle preset").On(g.applyObstaclePreset)
	if running {
		ctx.Button("Cancel").On(g.cancelCacheBuild)
	} else {
		ctx.Button("Build cache").On(g.startCacheBuild)
	}
	ctx.SetGridLayout(nil, nil)

	g.updateControls(ctx)
	g.snapshotControls(ctx)
	ctx.Text("Obstacle preset: partition layers, detail sample distance 0 (the cheapest rebuilds, docs/tilecache.md §1).")
	g.updateReport(ctx)
	g.snapshotReport(ctx)
	g.section(ctx, dockRight, "Agent sizes", func() { g.agentSizesSection(ctx) }) // cache_agents.go
}

// toolsSection is the Tools tab: the tool choice, the active tool's rows
// (tool.go), the crowd's controls with the agents tool, and the cache's
// obstacles and volumes.
func (g *Game) toolsSection(ctx *debugui.Context) {
	a := g.App
	c := a.CacheView()
	g.toolChoice(ctx)
	g.tools.active.panel(ctx, g)
	if g.tools.active == g.tools.agents {
		g.agentsSection(ctx) // tool_agents.go
	}

	if !c.Has {
		ctx.Text("No tile cache yet: the editing tools need one (Cache tab, Build cache).")
		return
	}
	obs := c.Obstacles
	ctx.Text(fmt.Sprintf("Obstacles (%d), next id %d:", len(obs), c.NextObs))
	ctx.SetGridLayout([]int{44, -1, 24}, nil)
	ctx.Loop(len(obs), func(i int) {
		o := obs[i]
		label := fmt.Sprintf("#%d", o.ID)
		if o.ID == a.Selection.Obstacle() {
			label = "*" + label
		}
		ctx.Button(label).On(func() { a.SelectObstacle(o.ID) })
		ctx.Text(session.DescribeObstacle(&o.Obstacle))
		ctx.Button("x").On(func() { a.Report(a.RemoveObstacle(o.ID)) })
	})
	ctx.SetGridLayout(nil, nil)
	vols := c.Volumes
	ctx.Text(fmt.Sprintf("Volumes (%d), next id %d:", len(vols), c.NextVol))
	ctx.SetGridLayout([]int{44, -1, 24}, nil)
	ctx.Loop(len(vols), func(i int) {
		v := vols[i]
		ctx.Text(fmt.Sprintf("V#%d", v.ID))
		ctx.Text(session.DescribeVolume(&v.Volume))
		ctx.Button("x").On(func() { a.Report(a.RemoveVolume(v.ID)) })
	})
	ctx.SetGridLayout(nil, nil)
}

// updateControls are the Cache tab's update controls: auto update and
// its rate, Step 1 tile and Update all.
func (g *Game) updateControls(ctx *debugui.Context) {
	a := g.App
	grid := []int{-4, -3, -2}
	ctx.SetGridLayout(grid, nil)
	on := a.Auto.On()
	ctx.Checkbox(&on, "Auto update").On(func() { a.Auto.SetOn(on) })
	g.cache.nums.label(ctx, "tiles-per-frame", "tiles per frame")
	if n := a.Auto.TilesPerFrame(); g.cache.nums.int(ctx, "tiles-per-frame", &n, numberSpec{step: 1}) {
		a.Auto.SetTilesPerFrame(n) // clamped
	}
	ctx.SetGridLayout(nil, nil)
	ctx.SetGridLayout([]int{-1, -1}, nil)
	ctx.Button("Step 1 tile").On(func() {
		a.Report(session.ErrOf(a.StepCacheJob(1, false, "step", func(a *session.App, tiles int) { a.ReportOK("updated " + session.Plural(tiles, "tile")) })))
	})
	ctx.Button("Update all").On(func() { a.Report(a.UpdateAllCache()) })
	ctx.SetGridLayout(nil, nil)
}

// updateReport is what the Cache tab says of the updates: the queue, the
// latest update, the swaps and the legend.
func (g *Game) updateReport(ctx *debugui.Context) {
	c := g.App.CacheView()
	if !c.Has {
		return
	}
	q := c.Queue
	ctx.Text("Queue: " + session.Plural(len(q), "tile") + queueText(q, 60))
	if len(c.Agents) > 1 {
		ctx.Text(fmt.Sprintf("(the queue of agent %q; %s queued in all %d agents' caches)", c.Agents[c.Agent].Name, session.Plural(c.Pending, "tile"), len(c.Agents)))
	}
	if len(c.Latest) > 0 {
		ctx.Text("Latest update:")
		lines := updateLines(c.Latest, 8)
		ctx.Loop(len(lines), func(i int) { ctx.Text(lines[i]) })
	}
	if len(c.SwapTiles) > 0 {
		ctx.Text(swapSummary(c.SwapTiles))
	}
	ctx.Text(fmt.Sprintf("Since the build: %s, %s.", session.Plural(c.Updates, "update"), session.Plural(c.LayersBuilt, "layer build")))
	ctx.Text("The swaps and queue overlays' colours are in the View tab's legend.")
}

// queueText lists up to max queued tiles as ": 1 (3, 4), 2 (4, 4), …".
func queueText(q [][2]int, maxShown int) string {
	if len(q) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(", front first: ")
	for i, p := range q {
		if i == maxShown {
			fmt.Fprintf(&b, ", … %d more", len(q)-maxShown)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d (%d, %d)", i+1, p[0], p[1])
	}
	return b.String()
}

// updateLines describes up to maxLines rebuilt tiles, one line each: the
// tile, what the rebuild took, the spans removed and each layer's swap.
func updateLines(us []tilecache.TileUpdate, maxLines int) []string {
	var out []string
	for i, u := range us {
		if i == maxLines {
			out = append(out, fmt.Sprintf("… %d more", len(us)-maxLines))
			break
		}
		s := fmt.Sprintf("(%d, %d) %s", u.TX, u.TZ, u.Rebuild)
		if u.LayersBuilt > 0 {
			s += ", " + session.Plural(u.LayersBuilt, "layer build")
		}
		s += ", " + session.Plural(u.RemovedSpans, "span") + " removed"
		for _, sw := range u.Swaps {
			s += fmt.Sprintf("; L%d %s", sw.Layer, sw.Kind)
		}
		out = append(out, s)
	}
	return out
}

// swapSummary counts the swaps of the log by kind.
func swapSummary(log []tilecache.TileUpdate) string {
	var n [4]int
	for _, u := range log {
		for _, s := range u.Swaps {
			if int(s.Kind) < len(n) {
				n[s.Kind]++
			}
		}
	}
	return fmt.Sprintf("Since the last edit: %s rebuilt; layers kept %d, replaced %d, added %d, removed %d.",
		session.Plural(len(log), "tile"), n[tilecache.SwapKept], n[tilecache.SwapReplaced], n[tilecache.SwapAdded], n[tilecache.SwapRemoved])
}

// snapshotControls are the Cache tab's snapshot, undo and session
// buttons.
func (g *Game) snapshotControls(ctx *debugui.Context) {
	a := g.App
	if hasFileDialog {
		ctx.SetGridLayout([]int{-1, -1}, nil)
		ctx.Button(g.dialogLabel("Save snapshot…")).On(func() { g.startSnapshotDialog(true) })
		ctx.Button(g.dialogLabel("Restore snapshot…")).On(func() { g.startSnapshotDialog(false) })
		ctx.Button(g.dialogLabel("Export navmesh…")).On(func() { g.startExportDialog(false) })
		ctx.Button(g.dialogLabel("Export Detour…")).On(func() { g.startExportDialog(true) })
		ctx.SetGridLayout(nil, nil)
	} else {
		ctx.SetGridLayout([]int{-2, -3}, nil)
		ctx.Text("Snapshot file:")
		ctx.TextField(&g.cache.pathField)
		ctx.SetGridLayout(nil, nil)
		ctx.SetGridLayout([]int{-1, -1}, nil)
		ctx.Button("Save").On(func() { a.Report(session.ErrOf(a.SaveSnapshot(g.cache.pathField))) })
		ctx.Button("Restore").On(func() { a.Report(a.RestoreSnapshot(g.cache.pathField)) })
		// The live navmesh to the same path: navviz's mesh file or Detour's.
		ctx.Button("Export navmesh").On(func() { a.Report(a.ExportNavMesh(g.cache.pathField, false)) })
		ctx.Button("Export Detour").On(func() { a.Report(a.ExportNavMesh(g.cache.pathField, true)) })
		ctx.SetGridLayout(nil, nil)
	}
	ctx.SetGridLayout([]int{-1, -1}, nil)
	ctx.Button("Undo (Ctrl+Z)").On(func() { a.Report(session.ErrOf(a.Undo())) })
	ctx.Button("Redo (Ctrl+Y)").On(func() { a.Report(session.ErrOf(a.Redo())) })
	ctx.SetGridLayout(nil, nil)
	g.sessionControls(ctx) // panel_session.go
}

// snapshotReport says what Undo would undo.
func (g *Game) snapshotReport(ctx *debugui.Context) {
	next := "nothing to undo"
	v := g.App.CacheView()
	if v.NextUndo != "" {
		next = "next undo: " + v.NextUndo
	}
	ctx.Text(fmt.Sprintf("%s (%d in the history). Undoing a removal or a move adds the shape again under a new id: the cache never reuses ids. Rebuilding or restoring the cache clears the history.", next, v.UndoDepth))
}
