package region

// Exported for the external tests of partition_levels_test.go (package
// region_test, which may import the pipeline without an import cycle).
var (
	PartCheckResult = partCheckResult
	PartIDHash      = partIDHash
)
