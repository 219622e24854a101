package navmesh

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"navviz/core/geom"
	"navviz/core/polymesh"
)

// ErrNoPolygons is returned by BuildTileData for a mesh without polygons: such
// a tile (or layer) has no tile data.
var ErrNoPolygons = errors.New("navmesh: mesh has no polygons")

// TileParams are the values of a tile that the polygon mesh does not carry.
type TileParams struct {
	// TileX, TileZ locate the tile in the level's tile grid, tiles.
	TileX, TileZ int32
	// Layer numbers the tile among the tiles at (TileX, TileZ) from 0 (0
	// for a tile that holds all layers of its position).
	Layer uint8
	// WalkableHeightM, WalkableRadiusM, WalkableClimbM describe the agent,
	// metres (finite, >= 0). WalkableClimbM is the vertical tolerance of
	// links across tile borders.
	WalkableHeightM, WalkableRadiusM, WalkableClimbM float32
	// CellSizeM and CellHeightM are the voxel size, metres. Zero takes the
	// mesh's (Mesh.CellSizeM, Mesh.CellHeightM); any other value must equal
	// it.
	CellSizeM, CellHeightM float32
	// OffMeshLinks are the off-mesh links whose start lies in the tile's
	// column (pipeline's TileGrid.OffMeshLinksIn picks them); each must pass Validate. The
	// tile keeps, in this order, those whose start a polygon of the tile
	// lies under (docs/format.md, "Off-mesh links").
	OffMeshLinks []OffMeshLink
}

// BuildTileData returns the tile data (docs/format.md, "Tile data") of a
// polygon mesh and its detail mesh, Detour's dtCreateNavMeshData.
//
// Vertices are stored at mesh.VertM (the mesh's coordinate map). Neighbour
// entries are translated: polymesh.NullIndex and PortalFlag|0xf become
// NullIndex, a polygon index stays, PortalFlag|side becomes ExtLink|dir
// (side 0 → DirNegX, 1 → DirPosZ, 2 → DirPosX, 3 → DirNegZ). mesh.Flags
// may be nil (all zero). The vertical origin is the lowest vertex y.
//
// detail may be nil: each polygon then gets the triangle fan (0, j-1, j),
// which is what polymesh.BuildDetail gives without height sampling, and the
// same bytes. Otherwise detail must hold one sub-mesh per polygon whose first
// vertices are the polygon's own at exactly their stored positions; those
// are not stored again (Detour's layout), the others follow in polygon order.
//
// A mesh without polygons gives ErrNoPolygons. Any other invalid input gives
// an error naming the value.
func BuildTileData(mesh *polymesh.Mesh, detail *polymesh.Detail, p TileParams) ([]byte, error) {
	b, err := BuildTile(mesh, detail, p)
	if err != nil {
		return nil, err
	}
	return b.data, nil
}

// BuiltTile is tile data with its decoded tile and content id, as
// BuildTile makes them; Mesh.AddBuilt and Mesh.ReplaceBuilt put it in a
// mesh without decoding or copying it, and Mesh.Built gives a mesh's tile
// back as one. Everything it holds is shared and read-only.
//
// Ownership: a BuiltTile from BuildTile is its caller's. Recycle hands its
// memory (tile, data, arrays) to a later BuildTile once nothing uses it;
// without Recycle the garbage collector takes it as usual.
type BuiltTile struct {
	data []byte
	t    *Tile
	id   uint64
	// mem is the memory BuildTile made the tile in (shared by Mesh.Built
	// and WithOffMesh tiles, which use the same arrays).
	mem *tileMem
	// portals[dir/2] are the tile's portal edges facing border dir
	// (portalEdges), made with the tile (in mem for BuildTile's) and
	// shared, read-only, by every BuiltTile and mesh tile of the same
	// polygons: a mesh links a tile through them, so they are not made
	// again at each place.
	portals *[4][]portalEdge
}

// tileMem is the memory of one BuildTile: the BuiltTile, its Tile, their
// arrays, the portal edges and the BV tree's scratch, recycled as a whole
// (BuiltTile.Recycle).
type tileMem struct {
	built BuiltTile
	tile  Tile
	bv    bvScratch
	// portals are the tile's portal edges (BuiltTile.portals).
	portals [4][]portalEdge
	// proof is buildTile's proof of the neighbour entries.
	proof neighbourProof
	// holders counts the meshes holding a tile in this memory (Mesh.hold
	// and release; a Mesh.Clone holds its tiles for good).
	holders atomic.Int32
	pooled  bool // in tilePool
}

// tilePool holds recycled tile memory (BuiltTile.Recycle).
var tilePool sync.Pool

// Recycle hands the memory of b, a tile BuildTile returned, to a later
// BuildTile (on any goroutine) and reports whether it did. It does
// nothing, and reports false, when b is nil, was not made by BuildTile
// (Mesh.Built and WithOffMesh give tiles that share another's memory),
// was recycled already, or a mesh holds b or a tile sharing its memory
// (AddBuilt, ReplaceBuilt; a Mesh.Clone holds its tiles for good). The
// caller promises that nothing else uses b, its Data or its tile any
// more: after a true result they are reused for another tile. A mesh's
// own tiles are never recycled by the mesh; only the code that built a
// tile and knows it let go of every reference (package tilecache for
// the tiles it rebuilds) calls Recycle.
func (b *BuiltTile) Recycle() bool {
	if b == nil || b.mem == nil || b != &b.mem.built || b.mem.pooled || b.mem.holders.Load() != 0 {
		return false
	}
	b.mem.pooled = true
	tilePool.Put(b.mem)
	return true
}

// takeTileMem returns recycled tile memory, or new memory.
func takeTileMem() *tileMem {
	if mem, _ := tilePool.Get().(*tileMem); mem != nil {
		mem.pooled = false
		return mem
	}
	return new(tileMem)
}

// Data returns the tile data (shared: read-only).
func (b *BuiltTile) Data() []byte {
	if b == nil {
		return nil
	}
	return b.data
}

// ContentID returns ContentID of the tile data.
func (b *BuiltTile) ContentID() uint64 {
	if b == nil {
		return 0
	}
	return b.id
}

// check returns an error for a nil or zero BuiltTile (fn names the caller).
func (b *BuiltTile) check(fn string) error {
	if b == nil || b.t == nil {
		return fmt.Errorf("navmesh: %s: nil BuiltTile (make one with BuildTile or Mesh.Built)", fn)
	}
	return nil
}

// BuildTile is BuildTileData that also keeps the tile it encoded. The tile
// passes every check DecodeTile makes on the data (Tile.check), so it is
// what DecodeTile would give for the data, and what AddBuilt and
// ReplaceBuilt put in a mesh: a mesh that would break one is rejected here
// rather than by AddTile later. The checks that depend on the mesh's
// values are made as the tile is filled (counts, indices, areas, finite
// positions, the detail mesh, and the neighbour entries' symmetry and
// portal edges, proven as the polygons are filled: neighbourProof, with
// checkNeighbours for its error when the proof fails); the others (slots
// after the last vertex, bounds, vertical origin, the BV tree) hold by
// construction (TestBuildTilePassesCheck checks every tile it builds from
// random contour sets).
func BuildTile(mesh *polymesh.Mesh, detail *polymesh.Detail, p TileParams) (*BuiltTile, error) {
	mem := takeTileMem()
	fail := func(err error) (*BuiltTile, error) {
		mem.pooled = true
		tilePool.Put(mem)
		return nil, err
	}
	t := &mem.tile
	if err := buildTile(mesh, detail, p, mem); err != nil {
		return fail(err)
	}
	if !mem.proof.proven() {
		if err := t.checkNeighbours(); err != nil {
			return fail(fmt.Errorf("navmesh: BuildTileData: the mesh gives an invalid tile: %w", err))
		}
	}
	data, err := t.encodeInto(mem.built.data)
	if err != nil {
		return fail(err)
	}
	mem.built = BuiltTile{data: data, t: t, id: ContentID(data), mem: mem, portals: &mem.portals}
	return &mem.built, nil
}

// buildTile fills mem's tile (reusing its arrays) with the tile of mesh,
// detail and p, and mem.portals with its portal edges as it translates
// them (what portalEdges finds in the tile).
func buildTile(mesh *polymesh.Mesh, detail *polymesh.Detail, p TileParams, mem *tileMem) error {
	t := &mem.tile
	if mesh == nil {
		return fmt.Errorf("navmesh: BuildTileData: nil mesh")
	}
	nvp := mesh.NVP
	if nvp < MinVertsPerPoly || nvp > MaxVertsPerPoly {
		return fmt.Errorf("navmesh: BuildTileData: mesh NVP %d, want %d..%d", nvp, MinVertsPerPoly, MaxVertsPerPoly)
	}
	if len(mesh.Polys)%(2*nvp) != 0 {
		return fmt.Errorf("navmesh: BuildTileData: mesh has %d polygon slots, not a multiple of 2*NVP = %d", len(mesh.Polys), 2*nvp)
	}
	np := mesh.PolyCount()
	if np == 0 {
		return ErrNoPolygons
	}
	if np > MaxTilePolys {
		return fmt.Errorf("navmesh: BuildTileData: mesh has %d polygons, at most %d fit a tile", np, MaxTilePolys)
	}
	if len(mesh.Verts) > MaxTileVerts {
		return fmt.Errorf("navmesh: BuildTileData: mesh has %d vertices, at most %d fit a tile", len(mesh.Verts), MaxTileVerts)
	}
	if len(mesh.Areas) != np {
		return fmt.Errorf("navmesh: BuildTileData: mesh has %d polygons but %d areas", np, len(mesh.Areas))
	}
	if mesh.Flags != nil && len(mesh.Flags) != np {
		return fmt.Errorf("navmesh: BuildTileData: mesh has %d polygons but %d flags", np, len(mesh.Flags))
	}
	if !(mesh.CellSizeM > 0) || !finite32(mesh.CellSizeM) || !(mesh.CellHeightM > 0) || !finite32(mesh.CellHeightM) {
		return fmt.Errorf("navmesh: BuildTileData: mesh cell size %v x %v m, want positive finite numbers", mesh.CellSizeM, mesh.CellHeightM)
	}
	if err := mesh.Map.Validate(); err != nil {
		return fmt.Errorf("navmesh: BuildTileData: %w", err)
	}
	if mesh.Map.CellSizeM != mesh.CellSizeM || mesh.Map.CellHeightM != mesh.CellHeightM {
		return fmt.Errorf("navmesh: BuildTileData: mesh cell sizes %v x %v m differ from its map's %v x %v m",
			mesh.CellSizeM, mesh.CellHeightM, mesh.Map.CellSizeM, mesh.Map.CellHeightM)
	}
	if p.CellSizeM != 0 && p.CellSizeM != mesh.CellSizeM {
		return fmt.Errorf("navmesh: BuildTileData: TileParams.CellSizeM %v m differs from the mesh's %v m", p.CellSizeM, mesh.CellSizeM)
	}
	if p.CellHeightM != 0 && p.CellHeightM != mesh.CellHeightM {
		return fmt.Errorf("navmesh: BuildTileData: TileParams.CellHeightM %v m differs from the mesh's %v m", p.CellHeightM, mesh.CellHeightM)
	}
	for _, f := range []struct {
		name string
		v    float32
	}{{"WalkableHeightM", p.WalkableHeightM}, {"WalkableRadiusM", p.WalkableRadiusM}, {"WalkableClimbM", p.WalkableClimbM}} {
		if !finite32(f.v) || f.v < 0 {
			return fmt.Errorf("navmesh: BuildTileData: TileParams.%s = %v m, want a finite number >= 0", f.name, f.v)
		}
	}

	*t = Tile{Header: Header{
		TileX: p.TileX, TileZ: p.TileZ, Layer: p.Layer, NVP: uint8(nvp),
		WalkableHeightM: p.WalkableHeightM, WalkableRadiusM: p.WalkableRadiusM, WalkableClimbM: p.WalkableClimbM,
		CellSizeM: mesh.CellSizeM, CellHeightM: mesh.CellHeightM,
	}, Verts: t.Verts, Polys: t.Polys, DetailMeshes: t.DetailMeshes, DetailVerts: t.DetailVerts, DetailTris: t.DetailTris, BVTree: t.BVTree}
	if len(mesh.Verts) < MinVertsPerPoly {
		return fmt.Errorf("navmesh: BuildTileData: mesh has %d vertices, want at least %d", len(mesh.Verts), MinVertsPerPoly)
	}
	t.Verts = resized(t.Verts, len(mesh.Verts))
	for i := range mesh.Verts {
		v := mesh.VertM(i)
		if !finiteVec(v) {
			return fmt.Errorf("navmesh: BuildTileData: mesh vertex %d %v is at %v m, not finite", i, mesh.Verts[i], v)
		}
		t.Verts[i] = v
	}

	t.Polys = resized(t.Polys, np)
	ps := &mem.portals
	for k := range ps {
		ps[k] = ps[k][:0]
	}
	proof := &mem.proof
	proof.reset(np)
	for i := range t.Polys {
		tp := &t.Polys[i]
		verts, neis := mesh.Poly(i)[:nvp], mesh.Neighbours(i)[:nvp]
		tp.Verts, tp.Neis = emptySlots, emptySlots
		// One pass copies the vertices up to the end marker and finds the
		// first beyond the mesh's; its error comes after the slot errors.
		nv, beyond := nvp, -1
		for j, v := range verts {
			if v == polymesh.NullIndex {
				nv = j
				break
			}
			if int(v) >= len(mesh.Verts) && beyond < 0 {
				beyond = j
			}
			tp.Verts[j] = v
		}
		for j := nv + 1; j < nvp; j++ {
			if verts[j] != polymesh.NullIndex {
				return fmt.Errorf("navmesh: BuildTileData: mesh polygon %d vertex slot %d holds %d after the end marker", i, j, verts[j])
			}
		}
		if nv < MinVertsPerPoly {
			return fmt.Errorf("navmesh: BuildTileData: mesh polygon %d has %d vertices, want at least %d", i, nv, MinVertsPerPoly)
		}
		if beyond >= 0 {
			return fmt.Errorf("navmesh: BuildTileData: mesh polygon %d vertex slot %d is %d, beyond the %d vertices", i, beyond, verts[beyond], len(mesh.Verts))
		}
		tp.VertCount = uint8(nv)
		for j := 0; j < nv; j++ {
			n := neis[j]
			switch {
			case n == polymesh.NullIndex:
			case n&polymesh.PortalFlag != 0:
				side := n &^ polymesh.PortalFlag
				if side == 0xf { // Recast's border edge without a portal
					break
				}
				if side >= uint16(len(sideDirs)) {
					return fmt.Errorf("navmesh: BuildTileData: mesh polygon %d neighbour slot %d = 0x%04x, a portal side outside 0..3", i, j, n)
				}
				dir := sideDirs[side]
				tp.Neis[j] = ExtLink | uint16(dir)
				a, b := tp.EdgeVerts(j)
				va, vb := t.Verts[a], t.Verts[b]
				proof.failed = proof.failed || !alongBorder(va, vb, uint16(dir))
				ps[dir/2] = append(ps[dir/2], newPortalEdge(i, j, va, vb, dir))
			case int(n) >= np:
				return fmt.Errorf("navmesh: BuildTileData: mesh polygon %d neighbour slot %d = %d, beyond the %d polygons", i, j, n, np)
			case int(n) == i:
				return fmt.Errorf("navmesh: BuildTileData: mesh polygon %d neighbour slot %d names the polygon itself", i, j)
			default:
				tp.Neis[j] = n
				proof.edge(t, i, j, int(n))
			}
		}
		if mesh.Areas[i] > MaxArea {
			return fmt.Errorf("navmesh: BuildTileData: mesh polygon %d area %d, want 0..%d", i, mesh.Areas[i], MaxArea)
		}
		tp.Area = mesh.Areas[i]
		if mesh.Flags != nil {
			tp.Flags = mesh.Flags[i]
		}
	}

	if err := buildDetail(t, detail); err != nil {
		return err
	}

	lowest, box := t.vertBounds()
	t.Header.OriginY = lowest
	t.Header.BMin, t.Header.BMax = box.Min, box.Max
	t.BVTree = mem.bv.build(t, t.BVTree[:0])
	keep, err := t.keepOffMesh(p.OffMeshLinks, "BuildTileData: TileParams.OffMeshLinks")
	if err != nil {
		return err
	}
	t.OffMesh = keep
	return nil
}

// neighbourProof proves rules 5 and 6 of docs/format.md §2.7 (what
// checkNeighbours checks) as buildTile fills the polygons in order, with
// no pass of its own. A portal edge is checked as it is translated. An
// edge of polygon i naming an earlier polygon n is searched for in n,
// which is filled; the edge found names i, runs the other way and has
// edge j as its reverse, so it is marked proven. An edge naming a later
// polygon waits (pending) until that polygon's search marks it. The
// proof holds when nothing failed and no edge is left pending; otherwise
// checkNeighbours runs, for its error (or none: an edge left pending
// may still have a reverse, such as a polygon's second copy of an edge).
type neighbourProof struct {
	// reversed[i] has bit j set when edge j of polygon i is proven.
	reversed []uint8
	pending  int // edges naming a later polygon, not proven yet
	failed   bool
}

// reset starts a proof for np polygons.
func (pr *neighbourProof) reset(np int) {
	pr.reversed = resized(pr.reversed, np)
	clear(pr.reversed)
	pr.pending, pr.failed = 0, false
}

// edge takes edge j of polygon i, naming polygon n (another polygon of
// t); the polygons up to i are filled.
func (pr *neighbourProof) edge(t *Tile, i, j, n int) {
	if n > i {
		pr.pending++
		return
	}
	a, b := t.Polys[i].EdgeVerts(j)
	k, found := reverseEdge(&t.Polys[n], uint16(i), a, b)
	switch {
	case !found:
		pr.failed = true
	case pr.reversed[n]&(1<<k) == 0:
		pr.reversed[n] |= 1 << k
		pr.pending--
	}
}

// proven reports whether the proof holds.
func (pr *neighbourProof) proven() bool { return !pr.failed && pr.pending == 0 }

// emptySlots are the vertex or neighbour slots of a polygon without
// vertices (NullIndex in every slot).
var emptySlots = func() (s [MaxVertsPerPoly]uint16) {
	for i := range s {
		s[i] = NullIndex
	}
	return s
}()

// sideDirs maps a polymesh portal side (0 x = 0, 1 z = max, 2 x = max,
// 3 z = 0) to the direction of its border.
var sideDirs = [4]uint8{DirNegX, DirPosZ, DirPosX, DirNegZ}

// buildDetail fills t's detail meshes, vertices and triangles from detail
// (nil: the fan of each polygon).
func buildDetail(t *Tile, detail *polymesh.Detail) error {
	np := len(t.Polys)
	t.DetailMeshes = resized(t.DetailMeshes, np)
	// Empty but never nil (as decoded), in t's memory when it has some.
	t.DetailVerts = t.DetailVerts[:0]
	if t.DetailVerts == nil {
		t.DetailVerts = []geom.Vec3{}
	}
	if detail == nil {
		tris := 0
		for i := range t.Polys {
			tris += int(t.Polys[i].VertCount) - 2
		}
		t.DetailTris = slices.Grow(t.DetailTris[:0], max(tris, 0))
		if t.DetailTris == nil {
			t.DetailTris = [][4]uint8{}
		}
		for i := range t.Polys {
			nv := int(t.Polys[i].VertCount)
			t.DetailMeshes[i] = DetailMesh{TriBase: uint32(len(t.DetailTris)), TriCount: uint16(nv - 2)}
			t.DetailTris = polymesh.AppendFanTris(t.DetailTris, nv)
		}
		return nil
	}
	if len(detail.Meshes) != np {
		return fmt.Errorf("navmesh: BuildTileData: detail has %d sub-meshes for %d polygons", len(detail.Meshes), np)
	}
	t.DetailTris = t.DetailTris[:0]
	if t.DetailTris == nil {
		t.DetailTris = [][4]uint8{}
	}
	for i, dm := range detail.Meshes {
		vb, nd, tb, nt := uint64(dm[0]), uint64(dm[1]), uint64(dm[2]), uint64(dm[3])
		if vb+nd > uint64(len(detail.Verts)) {
			return fmt.Errorf("navmesh: BuildTileData: detail sub-mesh %d vertices %d..%d beyond the %d detail vertices", i, vb, vb+nd, len(detail.Verts))
		}
		if tb+nt > uint64(len(detail.Tris)) {
			return fmt.Errorf("navmesh: BuildTileData: detail sub-mesh %d triangles %d..%d beyond the %d detail triangles", i, tb, tb+nt, len(detail.Tris))
		}
		p := &t.Polys[i]
		nv := uint64(p.VertCount)
		if nd < nv {
			return fmt.Errorf("navmesh: BuildTileData: detail sub-mesh %d has %d vertices, fewer than its polygon's %d", i, nd, nv)
		}
		if nd-nv > math.MaxUint16 || nt > math.MaxUint16 {
			return fmt.Errorf("navmesh: BuildTileData: detail sub-mesh %d has %d extra vertices and %d triangles, at most 65535 each", i, nd-nv, nt)
		}
		for j := uint64(0); j < nv; j++ {
			if got, want := detail.Verts[vb+j], t.Verts[p.Verts[j]]; !sameBits(got, want) {
				return fmt.Errorf("navmesh: BuildTileData: detail sub-mesh %d vertex %d at %v m, want its polygon's vertex at %v m", i, j, got, want)
			}
		}
		t.DetailMeshes[i] = DetailMesh{
			VertBase: uint32(len(t.DetailVerts)), TriBase: uint32(len(t.DetailTris)),
			VertCount: uint16(nd - nv), TriCount: uint16(nt),
		}
		for j := vb + nv; j < vb+nd; j++ {
			v := detail.Verts[j]
			if !finiteVec(v) {
				return fmt.Errorf("navmesh: BuildTileData: detail vertex %d = %v is not finite", j, v)
			}
			t.DetailVerts = append(t.DetailVerts, v)
		}
		for k := tb; k < tb+nt; k++ {
			tr := detail.Tris[k]
			for c := 0; c < 3; c++ {
				if uint64(tr[c]) >= nd {
					return fmt.Errorf("navmesh: BuildTileData: detail triangle %d (polygon %d) corner %d = %d, beyond the sub-mesh's %d vertices", k, i, c, tr[c], nd)
				}
			}
			if tr[3]&^DetailEdgeMask != 0 {
				return fmt.Errorf("navmesh: BuildTileData: detail triangle %d flags 0x%02x use bits outside 0x%02x", k, tr[3], DetailEdgeMask)
			}
			t.DetailTris = append(t.DetailTris, tr)
		}
		if uint64(len(t.DetailVerts)) > math.MaxUint32 || uint64(len(t.DetailTris)) > math.MaxUint32 {
			return fmt.Errorf("navmesh: BuildTileData: more than 2^32-1 detail vertices or triangles")
		}
	}
	return nil
}

// bvItem is a polygon's quantized box while the tree is built.
type bvItem struct {
	bmin, bmax [3]uint16
}

// bvScratch is the memory of a BV tree build: the polygons' boxes (by
// polygon), the polygons in tree order and the sort keys of a node.
type bvScratch struct {
	boxes []bvItem
	order []int32
	keys  []uint64
}

// build returns the BV tree of t (Detour's createBVTree with a total
// order): a node over the polygons [lo, hi) of the order takes their union
// box; a single polygon is a leaf; otherwise the polygons are sorted by
// bmin on the box's longest axis (x, then y, then z on ties), then by
// polygon index, split at lo + (hi-lo)/2, and the left half then the right
// half follow the node.
func (bv *bvScratch) build(t *Tile, nodes []BVNode) []BVNode {
	np := len(t.Polys)
	bv.boxes = resized(bv.boxes, np)
	bv.order = resized(bv.order, np)
	for i := range np {
		bv.boxes[i].bmin, bv.boxes[i].bmax = t.polyBox(i)
		bv.order[i] = int32(i)
	}
	nodes = slices.Grow(nodes[:0], 2*np-1)
	return bv.sub(nodes, 0, np)
}

// sub appends the nodes of the polygons order[lo:hi] to nodes (build). The
// sort key of a polygon is its bmin on the axis in the high 32 bits and its
// index in the low ones: sorting the keys as numbers is the order above.
// Only the split needs that order, not each half's: a half is ordered again
// on its own axis, and a leaf holds one polygon. So the keys are only
// partitioned at the split (selectLow); they are unique, so the halves are
// those of the sort.
func (bv *bvScratch) sub(nodes []BVNode, lo, hi int) []BVNode {
	at := len(nodes)
	nodes = append(nodes, BVNode{})
	part := bv.order[lo:hi]
	if hi-lo == 1 {
		nodes[at] = bv.leaf(part[0])
		return nodes
	}
	first := &bv.boxes[part[0]]
	n := BVNode{BMin: first.bmin, BMax: first.bmax}
	for _, p := range part[1:] {
		it := &bv.boxes[p]
		n.BMin[0], n.BMax[0] = min(n.BMin[0], it.bmin[0]), max(n.BMax[0], it.bmax[0])
		n.BMin[1], n.BMax[1] = min(n.BMin[1], it.bmin[1]), max(n.BMax[1], it.bmax[1])
		n.BMin[2], n.BMax[2] = min(n.BMin[2], it.bmin[2]), max(n.BMax[2], it.bmax[2])
	}
	axis := 0
	if n.BMax[1]-n.BMin[1] > n.BMax[axis]-n.BMin[axis] {
		axis = 1
	}
	if n.BMax[2]-n.BMin[2] > n.BMax[axis]-n.BMin[axis] {
		axis = 2
	}
	if hi-lo == 2 {
		// Two leaves, the smaller key first: no keys to partition.
		a, b := part[0], part[1]
		if bv.key(b, axis) < bv.key(a, axis) {
			a, b = b, a
		}
		nodes = append(nodes, bv.leaf(a), bv.leaf(b))
		n.I = -int32(len(nodes) - at)
		nodes[at] = n
		return nodes
	}
	keys := resized(bv.keys, len(part))
	for i, p := range part {
		keys[i] = bv.key(p, axis)
	}
	mid := lo + (hi-lo)/2
	selectLow(keys, mid-lo)
	for i, k := range keys {
		part[i] = int32(uint32(k))
	}
	bv.keys = keys[:0]
	nodes = bv.sub(nodes, lo, mid)
	nodes = bv.sub(nodes, mid, hi)
	n.I = -int32(len(nodes) - at)
	nodes[at] = n
	return nodes
}

// key returns the sort key of polygon p on axis (sub).
func (bv *bvScratch) key(p int32, axis int) uint64 {
	return uint64(bv.boxes[p].bmin[axis])<<32 | uint64(uint32(p))
}

// leaf returns the leaf node of polygon p.
func (bv *bvScratch) leaf(p int32) BVNode {
	b := &bv.boxes[p]
	return BVNode{BMin: b.bmin, BMax: b.bmax, I: p}
}

// selectLow reorders keys (distinct) so that keys[:k] are its k smallest,
// in any order (quickselect).
func selectLow(keys []uint64, k int) {
	lo, hi := 0, len(keys)
	for hi-lo > 8 {
		// Median of three as the pivot, moved to keys[lo].
		m := lo + (hi-lo)/2
		a, b, c := keys[lo], keys[m], keys[hi-1]
		switch {
		case a < b && b < c || c < b && b < a:
			keys[lo], keys[m] = b, a
		case a < c && c < b || b < c && c < a:
			keys[lo], keys[hi-1] = c, a
		}
		// Lomuto partition: keys[lo+1:p+1] below the pivot.
		pivot, p := keys[lo], lo
		for i := lo + 1; i < hi; i++ {
			if keys[i] < pivot {
				p++
				keys[p], keys[i] = keys[i], keys[p]
			}
		}
		keys[lo], keys[p] = keys[p], pivot
		switch {
		case p == k || p+1 == k:
			return
		case p < k:
			lo = p + 1
		default:
			hi = p
		}
	}
	// A short range: selection sort of the places up to k.
	for i := lo; i < k; i++ {
		m := i
		for j := i + 1; j < hi; j++ {
			if keys[j] < keys[m] {
				m = j
			}
		}
		keys[i], keys[m] = keys[m], keys[i]
	}
}
