package level_test

import (
	"navviz/core/level"
	"navviz/core/level/leveltest"
)

// The shared levels' tests of package level report a missing level as
// leveltest does (skip, or fail under NAVVIZ_REQUIRE_LEVELS).
func init() { level.SharedLevelMissing = leveltest.Missing }
