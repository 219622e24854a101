// Package detour reads and writes the navigation mesh files of Detour
// (recastnavigation): the "MSET" container that RecastDemo's Save and
// recast-navigation-js's exportNavMesh write, holding Detour tile data
// ("DNAV" version 7, as dtCreateNavMeshData lays it out), and the wrappers
// a Detour tile is found in (a bare DNAV tile, TrinityCore's .mmtile).
//
// Write turns a navmesh.Mesh (its live state: run-time flags and areas
// included) into an MSET file a Detour runtime loads; Decode, Read and
// ReadFile turn a file back into a navmesh.Mesh that navviz draws and
// queries, with the Detour headers kept for inspection. The byte layout,
// what is converted how and what is refused is docs/format.md §11.
//
// Detour's own structures are C structs written raw: every field is
// little endian (a file whose magic reads swapped is big endian and is
// read as such), sections are padded to 4 bytes (dtAlign4), and the
// polygon reference type is 32 bits unless Detour was built with
// DT_POLYREF64 (Options.PolyRef64; the reader finds out by itself).
//
// ReadTileCache reads a Detour tile-cache file ("TSET", RecastDemo's
// Sample_TempObstacles Save and recast-navigation-js's exportTileCache):
// its FastLZ-compressed "DTLR" layers, decompressed by the package's own
// FastLZ decoder (docs/format.md §13).
package detour
