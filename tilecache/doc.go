// Package tilecache is the run-time tile cache of build3d-runtime.md: it keeps
// each tile's step-3 compact heightfield, applies obstacles and area volumes,
// queues the affected tiles and rebuilds them one at a time with Update,
// swapping the results into the navmesh layer by layer.
//
// Work in progress: the cache arrives with issue 5; until then the package
// holds only this description.
package tilecache
