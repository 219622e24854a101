package scenario

import (
	"testing"

	"navviz/internal/niltest"
)

// TestNilReceivers: no exported method of the package's pointer types
// panics on a nil or zero-value receiver (issue 8, item 3); niltest scans
// the package, so a new type must be registered here.
func TestNilReceivers(t *testing.T) {
	niltest.Check(t, ".", niltest.Types{
		"Comparison":    {Nil: (*Comparison)(nil), Zero: &Comparison{}},
		"Diff":          {Nil: (*Diff)(nil), Zero: &Diff{}},
		"Error":         {Nil: (*Error)(nil), Zero: &Error{}},
		"Level":         {Nil: (*Level)(nil), Zero: &Level{}},
		"ObstacleStep":  {Nil: (*ObstacleStep)(nil), Zero: &ObstacleStep{}},
		"OffMeshStep":   {Nil: (*OffMeshStep)(nil), Zero: &OffMeshStep{}},
		"ReportCompare": {Nil: (*ReportCompare)(nil), Zero: &ReportCompare{}},
		"ReportDiff":    {Nil: (*ReportDiff)(nil), Zero: &ReportDiff{}},
		"Result":        {Nil: (*Result)(nil), Zero: &Result{}},
		"Runner":        {Nil: (*Runner)(nil), Zero: &Runner{}},
		"Scenario":      {Nil: (*Scenario)(nil), Zero: &Scenario{}},
		"ShotCompare":   {Nil: (*ShotCompare)(nil), Zero: &ShotCompare{}},
		"SizeError":     {Nil: (*SizeError)(nil), Zero: &SizeError{}},
		"SuiteEntry":    {Nil: (*SuiteEntry)(nil), Zero: &SuiteEntry{}},
		"Step":          {Nil: (*Step)(nil), Zero: &Step{}},
		"SwapLog":       {Nil: (*SwapLog)(nil), Zero: &SwapLog{}},
		"UpdateCount":   {Nil: (*UpdateCount)(nil), Zero: &UpdateCount{}},
		"VolumeStep":    {Nil: (*VolumeStep)(nil), Zero: &VolumeStep{}},
	})
}
