package render

import (
	"navviz/core/contour"
	"navviz/core/navmesh"
	"navviz/core/pipeline"
	"navviz/core/region"
)

// The mesh overlays read step 5 of a build through these accessors:
// TileBuild.Regions, TileBuild.Layers (contours and their region id
// offsets) and Build.Mesh.

// layerContours are the contours of one layer build of a tile and the
// offset of its region ids in the tile's (pipeline.LayerBuild.RegionBase).
type layerContours struct {
	set        *contour.Set
	regionBase int
}

// BuildMesh returns the navmesh of build b (nil for a nil build or a build
// without one, such as BuildOptions.SpansOnly).
func BuildMesh(b *pipeline.Build) *navmesh.Mesh {
	if b == nil {
		return nil
	}
	return b.Mesh
}

// tileRegions returns the region partition of tile i of b (nil if none).
func tileRegions(b *pipeline.Build, i int) *region.Result {
	if b == nil || i < 0 || i >= len(b.Tiles) {
		return nil
	}
	return b.Tiles[i].Regions
}

// tileContours returns the contour sets of tile i of b, one per layer
// build, with their region id offsets.
func tileContours(b *pipeline.Build, i int) []layerContours {
	if b == nil || i < 0 || i >= len(b.Tiles) {
		return nil
	}
	var out []layerContours
	for _, l := range b.Tiles[i].Layers {
		if l.Contours != nil {
			out = append(out, layerContours{set: l.Contours, regionBase: l.RegionBase})
		}
	}
	return out
}
