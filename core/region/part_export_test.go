package region

// Exported for the external tests of partition_levels_test.go (package
// region_test, which may import the pipeline without an import cycle).
var (
	PartCheckResult = partCheckResult
	PartIDHash      = partIDHash
)

// SetOneLayerShortcut turns the split's one-layer shortcut on or off.
func SetOneLayerShortcut(on bool) { noOneLayerShortcut = !on }

// RepairBlob returns the blob Repair gave removed span k.
func RepairBlob(r *RegionRepair, k int32) int32 { return r.blob[r.label[k]] }
