package session

import (
	"fmt"

	"navviz/core/navmesh/detour"
)

// ExportNavMesh writes the shown agent's live navmesh (the tile cache's
// mesh as it is, run-time edits included) to path, as Detour's MSET file
// (docs/format.md §11, the file Detour's loaders open) when detourFormat,
// else as navviz's mesh file (navmesh build -o's format, §6). The file is
// written atomically when the job runs; an error is shown in the window
// and leaves path as it was.
func (a *App) ExportNavMesh(path string, detourFormat bool) error {
	if !a.CacheView().Has {
		return a.Report(ErrNoCache)
	}
	if path == "" {
		return a.Report(fmt.Errorf("ui: export navmesh: no file name"))
	}
	return a.CacheDo(CacheJob{name: "export navmesh", Run: func(k *CacheCore) func(*App) error {
		m := k.Cache.Mesh()
		var data []byte
		var err error
		format := "navviz mesh file"
		if detourFormat {
			g := k.Cache.Grid()
			size := g.TileSizeM()
			data, err = detour.Encode(m, detour.Options{BoundsM: g.BoundsM, TileWidthM: size, TileHeightM: size})
			format = "Detour navmesh set (MSET)"
		} else {
			data, err = m.MarshalBinary()
		}
		if err == nil {
			err = WriteFileAtomic(path, data)
		}
		if err != nil {
			return failWith(fmt.Errorf("ui: export navmesh to %s: %w", path, err))
		}
		return okWith(fmt.Sprintf("navmesh of %s exported to %s (%s, %d tiles, %d bytes)", k.World.Agents()[k.Agent].Name, path, format, m.TileCount(), len(data)))
	}})
}
