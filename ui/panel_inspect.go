package ui

import (
	"fmt"
	"strings"

	"github.com/ebitengine/debugui"

	"navviz/inspect"
	"navviz/render"
	"navviz/ui/session"
)

// The Inspect section of the Cache panel: what the layer repair did in the
// last Update (package inspect; build3d-runtime.md, "Repairing a layer").
// With recording on, an inspect.Recorder is the cache's trace; the section
// lists the layers the last Update rebuilt with their verdicts, and the
// inspector overlays (render.InspectOverlayNames: removed spans, ring
// spans, repaired and differing contours) draw the layer selected, or
// every listed layer when none is.

// maxInspectRows bounds the layers the section lists.
const maxInspectRows = 64

// inspectRow is the label of report r's button in the section's list
// (short, so that a button holds it) and its verdict, shown in full as
// wrapped text under the button.
func inspectRow(r *inspect.LayerReport) (label, verdict string) {
	verdict = r.Verdict
	if r.Repaired {
		verdict = "contours " + r.Compare()
	}
	return fmt.Sprintf("(%d,%d) L%d %s", r.TX, r.TZ, r.Layer, r.Mode()), verdict
}

// inspectDetail returns the lines describing report r.
func inspectDetail(r *inspect.LayerReport) []string {
	lines := []string{
		fmt.Sprintf("Tile (%d, %d) layer %d: %s.", r.TX, r.TZ, r.Layer, map[bool]string{true: "repaired", false: "built from scratch"}[r.Repaired]),
		"Verdict: " + r.Verdict,
	}
	if s := r.FailedPrecondition(); s != "" {
		lines = append(lines, s)
	}
	lines = append(lines, fmt.Sprintf("Removed spans %d, ring spans %d.", r.Removed, r.Ring))
	if len(r.RemovedPos) > 0 {
		p := r.RemovedPos[0]
		lines = append(lines, fmt.Sprintf("First removed span floor at (%.2f, %.2f, %.2f).", p.X, p.Y, p.Z))
	}
	if r.Repaired {
		lines = append(lines, fmt.Sprintf("Regions rebuilt %d; loops new %d, gone %d.", r.RegionsRebuilt, r.NewLoops, r.GoneLoops))
	}
	switch {
	case r.Compared && r.ContoursEqual:
		lines = append(lines, "Repaired contours equal the from-scratch ones.")
	case r.Compared:
		lines = append(lines, "Repaired contours DIFFER from scratch: "+r.Diff)
	case r.Repaired:
		lines = append(lines, "Contours not compared with scratch.")
	}
	lines = append(lines, fmt.Sprintf("%d contours; polygons: %v.", len(r.Contours), r.HasPolys))
	return lines
}

// inspectSummary sums up the reports shown.
func inspectSummary(reps []inspect.LayerReport) string {
	if len(reps) == 0 {
		return "No layer rebuilt since recording started."
	}
	s := inspect.Summarize(reps)
	var b strings.Builder
	fmt.Fprintf(&b, "Last update: %s, %d repaired, %d from scratch; %d removed spans.", session.Plural(s.Layers, "layer"), s.Repaired, s.Layers-s.Repaired, s.Removed)
	if s.Differ > 0 {
		fmt.Fprintf(&b, " %d repaired layers DIFFER from scratch!", s.Differ)
	}
	return b.String()
}

// inspectSection is the Inspect part of the Cache panel.
func (g *Game) inspectSection(ctx *debugui.Context) {
	a := g.App
	on := a.InspectOn()
	ctx.Checkbox(&on, "Record layer rebuilds").On(func() { a.SetInspect(on) })
	if !on {
		ctx.Text("Records, per layer the next Update rebuilds, whether the layer repair ran, which precondition failed and why, the removed and ring spans and the repaired vs from-scratch contours.")
		return
	}
	cmp := a.Insp.Rec.CompareScratch()
	ctx.Checkbox(&cmp, "Compare with from-scratch contours").On(func() { a.SetInspectCompare(cmp) })
	reps := a.InspectReports()
	ctx.Text(inspectSummary(reps))
	if d := a.Insp.Rec.Dropped(); d > 0 {
		ctx.Text(fmt.Sprintf("(%d more layers not kept)", d))
	}
	if len(reps) == 0 {
		return
	}
	sel := a.InspectSelected()
	all := "Show all layers"
	if sel < 0 {
		all = "> " + all
	}
	ctx.Button(all).On(func() { a.SelectInspect(-1) })
	n := min(len(reps), maxInspectRows)
	ctx.Loop(n, func(i int) {
		label, verdict := inspectRow(&reps[i])
		if i == sel {
			label = "> " + label
		}
		ctx.Button(label).On(func() { a.SelectInspect(i) })
		ctx.Text("    " + verdict) // debugui's Text wraps at the panel's width
	})
	if len(reps) > n {
		ctx.Text(fmt.Sprintf("… %d more layers", len(reps)-n))
	}
	if sel >= 0 && sel < len(reps) {
		lines := inspectDetail(&reps[sel])
		ctx.Loop(len(lines), func(i int) { ctx.Text(lines[i]) })
	}
	ctx.Text("Legend (overlays removed, ring, repair-contours):")
	legendRows(ctx, render.InspectOverlayNames)
}
