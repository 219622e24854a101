// Package navmesh holds the navigation mesh of a level as a set of tiles:
// the binary tile data a tile build produces (BuildTileData, DecodeTile,
// ContentID) and the Mesh that holds the tiles in slots, hands out polygon
// references (PolyRef), stitches neighbouring tiles together with links and
// keeps per-polygon run-time edits (flags, area).
//
// The normative description of every byte is docs/format.md: the tile data,
// the mesh serialization, the dynamic-state snapshot, the reference encoding
// and the link rules. It follows Detour (dtCreateNavMeshData, dtNavMesh's
// addTile/removeTile/connectIntLinks/connectExtLinks, the BV tree of
// createBVTree, dtPolyRef's salt/tile/poly split) and says where it differs.
//
// # Units
//
// Positions are world metres stored as float32; walkable height, radius and
// climb are metres; BV-tree boxes are in cells of CellSizeM (along all three
// axes, as Detour does) counted from the tile's BMin. Tile coordinates
// (TileX, TileZ) count tiles; Layer numbers the height layers of one tile
// position from 0.
//
// # Determinism and safety
//
// Every output is a function of the inputs and of the sequence of mesh
// operations only: no map is iterated for output, links are kept in a fixed
// order, and Tiles lists tiles by (TileZ, TileX, Layer). Every entry point
// validates its input and returns an error naming the offending value or
// offset; nothing panics on input, and a call that fails changes nothing.
// A Mesh is not safe for concurrent use when one of the goroutines changes
// it; concurrent reads are safe.
//
// A nil *Mesh reads as an empty one (no tiles, every reference invalid,
// TileCount and SlotCount 0, State an empty state) and every method that
// changes or encodes it returns an error ("navmesh: nil Mesh"); a nil
// *State and a nil *Tile encode to an error and a nil *Tile has no
// polygons. No method panics on a nil receiver.
package navmesh
