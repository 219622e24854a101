package main

import (
	"navviz/core/navmesh"
	"navviz/core/pipeline"
	"navviz/internal/readlimit"
)

// readOffMesh reads the off-mesh link file (docs/format.md, "Off-mesh link
// file") given by --offmesh, bounded by navmesh.MaxOffMeshFileBytes; ""
// gives none. Each link gets the flags of
// its area under s (NavSettings.AreaFlags).
func readOffMesh(file string, s *pipeline.NavSettings) ([]navmesh.OffMeshLink, error) {
	if file == "" {
		return nil, nil
	}
	f, err := readlimit.Open(file, "off-mesh link file", navmesh.MaxOffMeshFileBytes)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return navmesh.ParseOffMeshLinks(f, file, s.AreaFlags)
}
