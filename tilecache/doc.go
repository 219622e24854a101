// Package tilecache is the run-time tile cache of build3d-runtime.md
// (docs/tilecache.md): a navmesh that changes while the game runs, without
// rebuilding the level.
//
// Building with a cache (Build, BuildSoup, BuildChunk, BuildHeightfield; the
// spec's BuildSoupCached, BuildChunkCached, BuildHeightfieldCached) gives
// exactly the mesh the plain build (pipeline.BuildLevel) gives, because it
// runs the same stage functions, and keeps for every tile that has something
// walkable the result of steps 1-3 (the compact heightfield after erosion,
// the pipeline's area volumes and its baked obstacles), the area ids as
// first and as last built and the first build's tile data.
//
// At run time a host adds and removes obstacles (voxel.Cylinder, voxel.Box,
// voxel.OrientedBox: AddObstacle, RemoveObstacle) and area volumes
// (voxel.ConvexVolume: AddVolume, RemoveVolume). Each operation queues the
// tiles it may touch; Update(maxTiles) rebuilds tiles from the front of the
// queue, one tile per iteration, from the obstacles and volumes in force
// when it gets to them, and swaps the result into the mesh layer by layer
// (a layer whose content did not change keeps its tile, references and
// run-time polygon edits). Once the queue is empty the mesh depends only on
// the obstacles and volumes in force, not on how the work was sliced. A
// tile whose rebuild fails does not wedge the queue: it leaves it, keeps
// its tiles in the mesh and is named by the returned *TileError (and in
// UpdateResult.Failed), while the other tiles of the call are swapped in;
// the next change that reaches it (or QueueTile) queues it again.
//
// On the layer-first path (pipeline.NavSettings.LayerFirst) a changed
// layer whose obstacles only removed spans is repaired rather than built
// from scratch (build3d-runtime.md, "Repairing a layer"; docs/tilecache.md
// §11): the first build's regions, loops and contours are kept and only
// what the removed spans touch is traced again, with the same bytes as a
// from-scratch build. Options.DisableRepair (Cache.SetRepair) turns it off;
// Options.Trace (Cache.SetTrace) lets an inspector (package inspect) see
// every layer built: removed spans, rings, the precondition verdict, and
// the repaired and from-scratch contours.
//
// Snapshot and Restore save and restore the run-time state (obstacles and
// volumes with their ids, the next ids, the queue and the mesh's dynamic
// state) in the versioned, checksummed format of docs/snapshot.md; Restore
// checks that the snapshot was taken from a cache of the same geometry and
// settings and validates everything before it changes anything (RestoreAll
// does so for several caches at once). A snapshot is at most
// MaxSnapshotBytes.
//
// # Units
//
// Positions are metres (float32 stored, double where the spec computes in
// double); tile coordinates count tiles; ids count from 1.
//
// # Determinism and safety
//
// Every result is a function of the geometry, the settings and the sequence
// of calls: no map is iterated for output, no clock is read, rebuilds run in
// queue order. Every entry point validates its input and returns an error
// naming the bad value; a call that fails changes nothing (except Update
// when a tile's rebuild fails: that tile leaves the queue and the others
// are swapped in, see Cache.Update). A Cache is not safe for concurrent
// use; its Mesh may be read (queried) between calls.
//
// # Nil and zero Caches
//
// A nil *Cache and a Cache not made by Build (the zero Cache, &Cache{})
// never panic. Every method that returns an error returns one ("tilecache:
// the Cache was not made by Build ...") and changes nothing: AddObstacle,
// RemoveObstacle, AddVolume, RemoveVolume, TilesFor, TilesForVolume,
// QueueTile, Update, UpdateInto, UpdateAll, Snapshot, Restore, RunCycle. The accessors return their zero
// values: Mesh and Source nil, Settings and Grid the zero NavSettings and
// TileGrid, Fingerprint, ObstacleGrowthM, QueueLen, NextObstacleID and
// NextVolumeID 0, CachedTiles, Queue, Obstacles and Volumes empty,
// IsCached, TileSpans and FirstBuildTileData false. SetTrace and SetRepair
// do nothing on a nil Cache, and RepairOn reports false for it. The same
// holds for a nil *UpdateResult (LayersBuilt and LayersRepaired 0) and a
// nil *TileError ("<nil>", no cause).
package tilecache
