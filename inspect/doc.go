// Package inspect builds read-only reports on a tile cache for navviz and
// the navmesh CLI: what the layer-first rebuilds of an Update did to each
// layer (build3d-runtime.md, "Repairing a layer"; docs/tilecache.md §11.6).
//
// A Recorder implements the cache's optional trace hook (tilecache.Trace;
// set it with Cache.SetTrace or Options.Trace). For every layer an Update
// builds it keeps a LayerReport: the tile and layer, whether the layer was
// repaired or built from scratch, the verdict of the repair's
// preconditions (which failed and why), the removed spans and the ring
// spans with the world position of each span's floor centre, the regions
// rebuilt, the loops made and dropped, and the comparison of the repaired
// contours with the ones built from scratch (equal, or the first
// difference, contour.Set.Diff). The reports of one Update replace those of
// the previous one (Recorder.Begin), and their number and the positions
// kept per report are bounded.
//
// The package never changes the cache: it copies what it keeps from each
// tilecache.LayerTrace during the call.
package inspect
