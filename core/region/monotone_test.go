package region

import (
	"strings"
	"testing"

	"navviz/core/geom"
	"navviz/core/voxel"
)

func TestMonotoneWideRows(t *testing.T) {
	// Rows with more runs than columns (two floors, each cut into runs by
	// non-walkable spans): the sweep table grows as needed.
	plan := []string{
		"2o2o2o2o2o",
		"2o2o2o2o2o",
	}
	c := partPlanCHF(t, 0, plan...)
	for k := range c.Spans {
		c.Areas[k] = 63
	}
	// Cut both floors at odd columns.
	for x := 1; x < 10; x += 2 {
		for z := 0; z < 2; z++ {
			cell := c.Cells[x+z*10]
			for i := cell.Index; i < cell.Index+cell.Count; i++ {
				c.Areas[i] = 0
			}
		}
	}
	res, err := Monotone(c, 0, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	partCheckResult(t, c, 0, res)
	if res.RegionCount() != 10 {
		t.Errorf("%d regions, want 10 (five columns x two floors)", res.RegionCount())
	}
}

func TestMonotoneTooManyRegions(t *testing.T) {
	// 200 x 200 isolated spans: 40000 regions with minArea 0, more than
	// MaxRegions. The error says so; with minArea 2 every one is dropped.
	const n = 400
	cols := make([][]voxel.Span, n*n)
	for z := 0; z < n; z += 2 {
		for x := 0; x < n; x += 2 {
			cols[x+z*n] = []voxel.Span{{MinRow: 0, MaxRow: 10, Area: voxel.AreaWalkable}}
		}
	}
	g := voxel.Grid{Width: n, Height: n, MaxM: geom.V3(n, 100, n), CellSizeM: 1, CellHeightM: 1}
	hf, err := voxel.NewHeightfieldFromColumns(g, cols)
	if err != nil {
		t.Fatal(err)
	}
	c, err := voxel.BuildCompactHeightfield(hf, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := Monotone(c, 0, 0, 0); err == nil || res != nil || !strings.Contains(err.Error(), "Monotone made 40000 regions, more than 32767") {
		t.Errorf("error %v", err)
	}
	res, err := Monotone(c, 0, 2, 0)
	if err != nil || res.Count != 1 {
		t.Errorf("Count %v, error %v, want 1 and none", res, err)
	}
}
