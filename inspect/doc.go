// Package inspect builds read-only reports on a tile cache for navviz and the
// navmesh CLI: layers, removed spans, repair rings, precondition verdicts,
// repaired vs from-scratch contours, and timings. It implements the cache's
// optional trace hook and never changes the cache.
//
// Work in progress: the reports arrive with the tile cache (issues 5 and
// later); until then the package holds only this description. The hook to
// implement is tilecache.Trace (docs/tilecache.md §11.6): set with
// Cache.SetTrace, it receives a tilecache.LayerTrace per layer built.
package inspect
