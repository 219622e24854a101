package scenario

import (
	"fmt"

	"navviz/core/pipeline"
)

// SettingsOf returns the scenario settings of s: the fields that differ
// from pipeline.DefaultSettings (nil when none does), so that
// NavSettings gives s back bit for bit (float32 values convert to float64
// exactly). A scenario holds no build-time volumes or obstacles (they
// are steps): s with any is an error naming how many.
func SettingsOf(s pipeline.NavSettings) (*Settings, error) {
	if len(s.Volumes) > 0 || len(s.Obstacles) > 0 {
		return nil, fmt.Errorf("settings: %d build-time volumes and %d build-time obstacles: a scenario adds volumes and obstacles as steps, not in its settings",
			len(s.Volumes), len(s.Obstacles))
	}
	d := pipeline.DefaultSettings()
	st := &Settings{}
	set := false
	f := func(v, def float32) *float64 {
		if v == def {
			return nil
		}
		set = true
		x := float64(v)
		return &x
	}
	i := func(v, def int) *int {
		if v == def {
			return nil
		}
		set = true
		return &v
	}
	st.CellSizeM = f(s.CellSizeM, d.CellSizeM)
	st.CellHeightM = f(s.CellHeightM, d.CellHeightM)
	st.AgentHeightM = f(s.AgentHeightM, d.AgentHeightM)
	st.AgentRadiusM = f(s.AgentRadiusM, d.AgentRadiusM)
	st.AgentMaxClimbM = f(s.AgentMaxClimbM, d.AgentMaxClimbM)
	st.AgentMaxSlopeDeg = f(s.AgentMaxSlopeDeg, d.AgentMaxSlopeDeg)
	st.EdgeMaxLenM = f(s.EdgeMaxLenM, d.EdgeMaxLenM)
	st.EdgeMaxErrorCells = f(s.EdgeMaxErrorCells, d.EdgeMaxErrorCells)
	st.DetailSampleDistCells = f(s.DetailSampleDistCells, d.DetailSampleDistCells)
	st.DetailSampleMaxErrorCells = f(s.DetailSampleMaxErrorCells, d.DetailSampleMaxErrorCells)
	st.TileSizeCells = i(s.TileSizeCells, d.TileSizeCells)
	st.RegionMinSizeCells = i(s.RegionMinSizeCells, d.RegionMinSizeCells)
	st.RegionMergeSizeCells = i(s.RegionMergeSizeCells, d.RegionMergeSizeCells)
	st.VertsPerPoly = i(s.VertsPerPoly, d.VertsPerPoly)
	if s.Partition != d.Partition {
		st.Partition = s.Partition.String()
		set = true
	}
	if !set {
		return nil, nil
	}
	return st, nil
}
