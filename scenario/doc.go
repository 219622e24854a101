// Package scenario reads, writes and runs scenario files: a level, its
// NavSettings, whether a tile cache is built, and an ordered list of steps
// (obstacles and volumes added and removed by name, updates, snapshots,
// camera, overlays, tile selection, a path, shots). A Runner plays the
// steps one at a time and renders each shot with the software rasterizer
// (package render); Compare checks a shot against a golden picture. The
// format is documented in docs/scenario.md. `navmesh scenario` runs files
// headless; navviz plays them in the GUI.
package scenario
