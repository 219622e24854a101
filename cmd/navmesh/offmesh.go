package main

import (
	"os"

	"navviz/core/navmesh"
	"navviz/core/pipeline"
)

// readOffMesh reads the off-mesh link file (docs/format.md, "Off-mesh link
// file") given by --offmesh; "" gives none. Each link gets the flags of
// its area under s (NavSettings.AreaFlags).
func readOffMesh(file string, s *pipeline.NavSettings) ([]navmesh.OffMeshLink, error) {
	if file == "" {
		return nil, nil
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return navmesh.ParseOffMeshLinks(f, file, s.AreaFlags)
}
