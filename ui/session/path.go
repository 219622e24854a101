package session

import (
	"navviz/core/geom"
	"navviz/core/level"
	"navviz/core/navmesh"
	"navviz/scenario"
)

// Path is the Path tool's model: two picked points, metres, on a level, and
// the path between them on a navmesh, found again (scenario.FindPath, the
// search navmesh scenario runs too) whenever the points, the level or the
// navmesh's tiles change (Sync). Gen changes whenever anything it holds
// does. The zero Path has no points.
type Path struct {
	start, end       geom.Vec3
	hasStart, hasEnd bool
	// soup is the level the points were picked on: on another one they
	// are dropped.
	soup *level.Soup

	// key is what res was found for; synced says a Sync ran (key holds).
	key    pathKey
	synced bool
	res    scenario.Path
	// searches counts the searches run (one per change).
	searches int
	gen      uint64
}

// pathKey is what a path result depends on.
type pathKey struct {
	mesh             *navmesh.Mesh
	tiles            uint64 // MeshSig of mesh
	soup             *level.Soup
	start, end       geom.Vec3
	hasStart, hasEnd bool
}

// NoMeshErr is the result's Err when there are both points and no navmesh.
const NoMeshErr = "no navmesh: build the level or the cache"

// Start returns the start point and whether it is set.
func (p *Path) Start() (geom.Vec3, bool) { return p.start, p.hasStart }

// End returns the end point and whether it is set.
func (p *Path) End() (geom.Vec3, bool) { return p.end, p.hasEnd }

// Open reports whether a point is set (the Path window is shown).
func (p *Path) Open() bool { return p.hasStart || p.hasEnd }

// Result returns the last search's result: Points is nil when there is no
// path (Err says why, "" without both points). The slices belong to the
// Path: do not change them.
func (p *Path) Result() scenario.Path { return p.res }

// Searches returns how many searches ran (one per change Sync saw).
func (p *Path) Searches() int { return p.searches }

// Gen returns a counter that changes whenever the points or the result do.
func (p *Path) Gen() uint64 { return p.gen }

// SetPoint sets the start (end false) or the end to at, picked on level
// soup; points picked on another level before are dropped first.
func (p *Path) SetPoint(end bool, at geom.Vec3, soup *level.Soup) {
	p.follow(soup)
	if end {
		p.end, p.hasEnd = at, true
	} else {
		p.start, p.hasStart = at, true
	}
	p.gen++
}

// Clear forgets both points (the result goes at the next Sync).
func (p *Path) Clear() {
	if p.hasStart || p.hasEnd {
		p.hasStart, p.hasEnd = false, false
		p.gen++
	}
}

// follow drops the points when soup is not the level they were picked on.
func (p *Path) follow(soup *level.Soup) {
	if p.soup != soup {
		p.Clear()
		p.soup = soup
	}
}

// Sync finds the path again on m when the points, the level (soup: the
// points of another level are dropped) or m's tiles changed since the last
// Sync, and reports whether it did. It only reads m.
func (p *Path) Sync(m *navmesh.Mesh, soup *level.Soup) bool {
	p.follow(soup)
	k := pathKey{mesh: m, tiles: MeshSig(m), soup: soup, hasStart: p.hasStart, hasEnd: p.hasEnd}
	if p.hasStart {
		k.start = p.start
	}
	if p.hasEnd {
		k.end = p.end
	}
	if p.synced && k == p.key {
		return false
	}
	p.key, p.synced = k, true
	p.gen++
	p.res = scenario.Path{}
	switch {
	case !p.hasStart || !p.hasEnd:
	case m == nil:
		p.res.Err = NoMeshErr
	default:
		p.searches++
		p.res = scenario.FindPath(m, p.start, p.end)
	}
	return true
}

// MeshSig returns a signature of m's tiles: their references (a swap
// changes a tile's generation, an addition or a removal the list); 0 for
// no mesh.
func MeshSig(m *navmesh.Mesh) uint64 {
	if m == nil {
		return 0
	}
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	for _, r := range m.Tiles() {
		h = (h ^ uint64(r)) * prime
	}
	return (h ^ uint64(m.TileCount())) * prime
}
