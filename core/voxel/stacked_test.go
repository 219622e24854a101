package voxel

import "testing"

// TestStackedColumns counts the own columns with two or more walkable open
// spans: the border ring is left out, and a span made unwalkable (as erosion
// does) no longer counts.
func TestStackedColumns(t *testing.T) {
	g := unitGrid(6, 6, 100)
	g.BorderCells = 1
	two := []Span{{0, 10, AreaWalkable}, {20, 30, AreaWalkable}}
	three := []Span{{0, 10, AreaWalkable}, {20, 30, AreaWalkable}, {40, 50, AreaWalkable}}
	hf := columnsOf(t, g, func(x, z int) []Span {
		switch [2]int{x, z} {
		case [2]int{2, 2}, [2]int{3, 3}:
			return two
		case [2]int{4, 4}:
			return three
		case [2]int{0, 2}, [2]int{5, 5}: // border ring
			return two
		case [2]int{1, 1}:
			return []Span{{0, 10, AreaWalkable}}
		}
		return nil
	})
	c, err := BuildCompactHeightfield(hf, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.StackedColumns(); got != 3 {
		t.Fatalf("StackedColumns = %d, want 3", got)
	}
	// Column (3, 3) keeps one walkable floor.
	cell := c.Cells[3+3*c.Width]
	c.Areas[cell.Index+1] = AreaNull
	if got := c.StackedColumns(); got != 2 {
		t.Errorf("after clearing a floor of (3, 3): StackedColumns = %d, want 2", got)
	}
}
