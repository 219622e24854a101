package polymesh

import (
	"fmt"
	"math"

	"navviz/core/geom"
	"navviz/core/voxel"
)

// NoSamplingBelowCells is the detail sample distance, in cells, at or below
// which BuildDetail samples no heights (Recast's demo: below 0.9 cells the
// sample distance is 0).
const NoSamplingBelowCells = 0.9

// Limits of the sampled detail mesh of one polygon (Recast's).
const (
	detailMaxVerts        = 127 // vertices per polygon sub-mesh
	detailMaxTris         = 255 // triangles per polygon sub-mesh
	detailMaxVertsPerEdge = 32  // samples along one polygon edge
	unsetHeight           = 0xffff
)

// Sampling reports whether BuildDetail samples heights for a sample distance
// of sampleDistM metres on cells of cellSizeM: sampleDistM >
// float32(0.9)*cellSizeM (the product in float32).
func Sampling(sampleDistM, cellSizeM float32) bool {
	return sampleDistM > float32(NoSamplingBelowCells)*cellSizeM
}

// AppendFanTris appends to tris the fan of a convex polygon of nv
// vertices, the detail triangles Detour makes for a polygon without a
// detail mesh: (0, j-1, j) for j = 2..nv-1, with the flags of Detail.Tris
// marking the edges on the polygon's boundary (edge 1 of every triangle,
// edge 0 of the first and edge 2 of the last).
func AppendFanTris(tris [][4]uint8, nv int) [][4]uint8 {
	for j := 2; j < nv; j++ {
		f := uint8(1 << 2)
		if j == 2 {
			f |= 1 << 0
		}
		if j == nv-1 {
			f |= 1 << 4
		}
		tris = append(tris, [4]uint8{0, uint8(j - 1), uint8(j), f})
	}
	return tris
}

// BuildDetail returns the detail mesh of mesh (Recast's
// rcBuildPolyMeshDetail; docs/polys.md, "Detail mesh").
//
// Without sampling (Sampling(sampleDistM, mesh.CellSizeM) false) each
// polygon's sub-mesh is its own vertices at their stored positions (VertM)
// and the fan (0, j-1, j), j = 2..n-1, with boundary-edge flags, as Detour
// makes when a tile has no detail mesh; chf and regions are not used and
// may be nil.
//
// With sampling, chf is the compact heightfield the contours came from (its
// grid includes the border; mesh.BorderCells must equal chf.BorderCells) and
// regions holds its spans' region ids (region.Result.IDs; nil: every
// polygon's heights are gathered from its centre, as Recast does for a
// polygon of several regions). Each polygon edge is sampled every
// sampleDistM metres and simplified to sampleMaxErrorM, the inside is
// sampled on a sampleDistM grid, and samples are inserted, worst first, into
// a Delaunay triangulation until every sample is within sampleMaxErrorM.
// Vertices are in metres: the polygon's own vertices at their stored
// positions, the others at mesh.OriginM plus their offset (no extra cell
// height, unlike Recast; see docs/polys.md).
func BuildDetail(mesh *Mesh, chf *voxel.CompactHeightfield, regions []uint16, sampleDistM, sampleMaxErrorM float32) (*Detail, error) {
	if err := validateMesh(mesh); err != nil {
		return nil, err
	}
	if !(sampleDistM >= 0) || math.IsInf(float64(sampleDistM), 1) {
		return nil, fmt.Errorf("polymesh: detail sample distance %v m, want a finite number >= 0", sampleDistM)
	}
	if !(sampleMaxErrorM >= 0) || math.IsInf(float64(sampleMaxErrorM), 1) {
		return nil, fmt.Errorf("polymesh: detail sample max error %v m, want a finite number >= 0", sampleMaxErrorM)
	}
	np := mesh.PolyCount()
	d := &Detail{Meshes: make([][4]uint32, 0, np), Verts: []geom.Vec3{}, Tris: [][4]uint8{}}
	if !Sampling(sampleDistM, mesh.CellSizeM) {
		for i := 0; i < np; i++ {
			p := mesh.Poly(i)
			nv := countPolyVerts(p)
			d.Meshes = append(d.Meshes, [4]uint32{uint32(len(d.Verts)), uint32(nv), uint32(len(d.Tris)), uint32(nv - 2)})
			for j := 0; j < nv; j++ {
				d.Verts = append(d.Verts, mesh.VertM(int(p[j])))
			}
			d.Tris = AppendFanTris(d.Tris, nv)
		}
		return d, nil
	}
	if err := validateDetailInput(mesh, chf, regions); err != nil {
		return nil, err
	}
	db := newDetailBuilder(mesh, chf, regions, sampleDistM, sampleMaxErrorM)
	defer db.index.release()
	for i := 0; i < np; i++ {
		db.poly(i, d)
		if db.err != nil {
			return nil, db.err
		}
	}
	return d, nil
}

// validateMesh checks the shape of a mesh: NVP, slice lengths, vertex
// indices and polygon sizes.
func validateMesh(m *Mesh) error {
	if m == nil {
		return fmt.Errorf("polymesh: nil mesh")
	}
	if m.NVP < MinVertsPerPoly || m.NVP > MaxVertsPerPoly {
		return fmt.Errorf("polymesh: mesh NVP %d out of range %d..%d", m.NVP, MinVertsPerPoly, MaxVertsPerPoly)
	}
	if len(m.Polys)%(2*m.NVP) != 0 {
		return fmt.Errorf("polymesh: mesh has %d polygon slots, not a multiple of 2*NVP = %d", len(m.Polys), 2*m.NVP)
	}
	np := m.PolyCount()
	if len(m.Regs) != np || len(m.Areas) != np {
		return fmt.Errorf("polymesh: mesh has %d polygons but %d regions and %d areas", np, len(m.Regs), len(m.Areas))
	}
	if err := m.Map.Validate(); err != nil {
		return err
	}
	if m.CellSizeM != m.Map.CellSizeM || m.CellHeightM != m.Map.CellHeightM {
		return fmt.Errorf("polymesh: mesh cell sizes %v x %v m differ from its map's %v x %v m", m.CellSizeM, m.CellHeightM, m.Map.CellSizeM, m.Map.CellHeightM)
	}
	if !(m.MaxEdgeErrorCells >= 0) || m.MaxEdgeErrorCells > 1<<20 {
		return fmt.Errorf("polymesh: mesh MaxEdgeErrorCells %v, want 0..2^20", m.MaxEdgeErrorCells)
	}
	for vi, v := range m.Verts {
		if int(v[0]) > m.WidthCells || int(v[2]) > m.HeightCells {
			return fmt.Errorf("polymesh: mesh vertex %d at (%d, %d, %d) outside the tile's %d x %d cells", vi, v[0], v[1], v[2], m.WidthCells, m.HeightCells)
		}
	}
	for i := 0; i < np; i++ {
		p := m.Poly(i)
		nv := countPolyVerts(p)
		if nv < 3 {
			return fmt.Errorf("polymesh: mesh polygon %d has %d vertices, want at least 3", i, nv)
		}
		for j := 0; j < nv; j++ {
			if int(p[j]) >= len(m.Verts) {
				return fmt.Errorf("polymesh: mesh polygon %d vertex slot %d is %d, beyond the %d vertices", i, j, p[j], len(m.Verts))
			}
		}
		for j := nv; j < m.NVP; j++ {
			if p[j] != NullIndex {
				return fmt.Errorf("polymesh: mesh polygon %d slot %d holds %d after the end marker", i, j, p[j])
			}
		}
	}
	return nil
}

// validateDetailInput checks the heightfield and regions of a sampled
// detail build against the mesh.
func validateDetailInput(m *Mesh, chf *voxel.CompactHeightfield, regions []uint16) error {
	if chf == nil {
		return fmt.Errorf("polymesh: detail sampling needs a compact heightfield, got nil")
	}
	if chf.CellSizeM != m.CellSizeM || chf.CellHeightM != m.CellHeightM {
		return fmt.Errorf("polymesh: heightfield cells %v x %v m differ from the mesh's %v x %v m", chf.CellSizeM, chf.CellHeightM, m.CellSizeM, m.CellHeightM)
	}
	if chf.BorderCells != m.BorderCells {
		return fmt.Errorf("polymesh: heightfield border %d cells differs from the mesh's %d", chf.BorderCells, m.BorderCells)
	}
	if chf.Width < 1 || chf.Height < 1 || len(chf.Cells) != chf.Width*chf.Height {
		return fmt.Errorf("polymesh: heightfield of %d x %d columns has %d cells", chf.Width, chf.Height, len(chf.Cells))
	}
	if m.WidthCells+2*m.BorderCells > chf.Width || m.HeightCells+2*m.BorderCells > chf.Height {
		return fmt.Errorf("polymesh: mesh of %d x %d cells with border %d does not fit the %d x %d heightfield",
			m.WidthCells, m.HeightCells, m.BorderCells, chf.Width, chf.Height)
	}
	for ci, c := range chf.Cells {
		if uint64(c.Index)+uint64(c.Count) > uint64(len(chf.Spans)) {
			return fmt.Errorf("polymesh: heightfield column %d spans [%d, %d) beyond its %d spans", ci, c.Index, uint64(c.Index)+uint64(c.Count), len(chf.Spans))
		}
	}
	if regions != nil && len(regions) != len(chf.Spans) {
		return fmt.Errorf("polymesh: %d region ids for %d spans", len(regions), len(chf.Spans))
	}
	return nil
}

// heightPatch holds the floor row of each column of a polygon's box (mesh
// cells [xmin, xmin+width) x [zmin, zmin+height)), unsetHeight where unknown.
type heightPatch struct {
	data                      []uint16
	xmin, zmin, width, height int
}

// dvec is a float32 point of the detail stage (metres, relative to the
// mesh's origin until stored).
type dvec struct{ x, y, z float32 }

// detailBuilder holds the inputs and the scratch of BuildDetail.
type detailBuilder struct {
	mesh      *Mesh
	chf       *voxel.CompactHeightfield
	regions   []uint16
	index     *regionSpans // regions' first spans by column, on stacked floors
	sampleD   float32      // sample distance, metres
	maxErr    float32      // max error, metres
	cs, ics   float32
	ch        float32
	bs        int
	radius    int // height search radius, cells
	bounds    [][4]int
	hp        heightPatch
	queue     []int
	polyBuf   [MaxVertsPerPoly]dvec
	verts     []dvec
	hull      []int
	tris      [][4]int
	edges     [][4]int
	samples   [][4]int
	edgeVerts [detailMaxVertsPerEdge + 1]dvec
	err       error // first corrupt link met (see neighbour)
}

// neighbour returns the index in chf.Spans of the span that link l (not
// NotConnected) of a span of grid column (x, z) reaches in direction dir,
// or -1 when the link leads outside the grid or past the neighbour
// column's spans; the first such corrupt link becomes db.err (links are
// checked where they are followed rather than all up front).
func (db *detailBuilder) neighbour(x, z, l, dir int) int {
	ax, az := x+voxel.DirOffsetX[dir], z+voxel.DirOffsetZ[dir]
	if w := db.chf.Width; uint(ax) < uint(w) && uint(az) < uint(db.chf.Height) {
		if c := db.chf.Cells[ax+az*w]; uint(l) < uint(c.Count) {
			return int(c.Index) + l
		}
	}
	return db.corrupt(x, z, l, dir)
}

// corrupt records a link that leads nowhere (see neighbour) and returns -1.
func (db *detailBuilder) corrupt(x, z, l, dir int) int {
	if db.err == nil {
		db.err = fmt.Errorf("polymesh: heightfield column (%d, %d) has a span linking in direction %d to span %d of column (%d, %d), which does not exist",
			x, z, dir, l, x+voxel.DirOffsetX[dir], z+voxel.DirOffsetZ[dir])
	}
	return -1
}

func newDetailBuilder(m *Mesh, chf *voxel.CompactHeightfield, regions []uint16, sd, me float32) *detailBuilder {
	db := &detailBuilder{
		mesh: m, chf: chf, regions: regions,
		sampleD: sd, maxErr: me,
		cs: m.CellSizeM, ics: 1 / m.CellSizeM, ch: m.CellHeightM,
		bs:     m.BorderCells,
		radius: max(1, int(math.Ceil(float64(m.MaxEdgeErrorCells)))),
	}
	np := m.PolyCount()
	db.bounds = make([][4]int, np)
	maxhw, maxhh := 0, 0
	for i := 0; i < np; i++ {
		p := m.Poly(i)
		xmin, xmax, zmin, zmax := chf.Width, 0, chf.Height, 0
		for j := 0; j < len(p) && p[j] != NullIndex; j++ {
			v := m.Verts[p[j]]
			xmin = min(xmin, int(v[0]))
			xmax = max(xmax, int(v[0]))
			zmin = min(zmin, int(v[2]))
			zmax = max(zmax, int(v[2]))
		}
		xmin = max(0, xmin-1)
		xmax = min(chf.Width, xmax+1)
		zmin = max(0, zmin-1)
		zmax = min(chf.Height, zmax+1)
		db.bounds[i] = [4]int{xmin, xmax, zmin, zmax}
		if xmin >= xmax || zmin >= zmax {
			continue
		}
		maxhw = max(maxhw, xmax-xmin)
		maxhh = max(maxhh, zmax-zmin)
	}
	db.hp.data = make([]uint16, maxhw*maxhh)
	db.verts = make([]dvec, 0, 256)
	if regions != nil {
		db.index = newRegionSpans(chf, regions)
	}
	return db
}

// poly builds the sub-mesh of polygon i and appends it to d.
func (db *detailBuilder) poly(i int, d *Detail) {
	m := db.mesh
	p := m.Poly(i)
	npoly := countPolyVerts(p)
	for j := 0; j < npoly; j++ {
		v := m.Verts[p[j]]
		db.polyBuf[j] = dvec{float32(float32(v[0]) * db.cs), float32(float32(v[1]) * db.ch), float32(float32(v[2]) * db.cs)}
	}
	b := db.bounds[i]
	db.hp.xmin, db.hp.zmin = b[0], b[2]
	db.hp.width, db.hp.height = b[1]-b[0], b[3]-b[2]
	db.hp.data = db.hp.data[:max(0, db.hp.width*db.hp.height)]
	reg := MultipleRegions
	if db.regions != nil {
		reg = m.Regs[i]
	}
	db.heightData(p[:npoly], reg)
	db.buildPolyDetail(db.polyBuf[:npoly])

	vbase := len(d.Verts)
	o := m.OriginM
	for j, v := range db.verts {
		if j < npoly {
			d.Verts = append(d.Verts, m.VertM(int(p[j])))
			continue
		}
		d.Verts = append(d.Verts, geom.Vec3{X: v.x + o.X, Y: v.y + o.Y, Z: v.z + o.Z})
	}
	tbase := len(d.Tris)
	for _, t := range db.tris {
		d.Tris = append(d.Tris, [4]uint8{uint8(t[0]), uint8(t[1]), uint8(t[2]), uint8(t[3])})
	}
	d.Meshes = append(d.Meshes, [4]uint32{uint32(vbase), uint32(len(db.verts)), uint32(tbase), uint32(len(db.tris))})
}

// queueIfEdge queues span si of column (x, z), of region reg, for
// heightData's flood when a link of it leads to another region.
func (db *detailBuilder) queueIfEdge(x, z, si int, reg uint16) {
	chf := db.chf
	w, h := chf.Width, chf.Height
	sp := chf.Spans[si]
	for dir := 0; dir < 4; dir++ {
		l := int(sp.Con>>(8*uint(dir))) & 0xff
		if l == voxel.NotConnected {
			continue
		}
		// db.neighbour, inlined.
		ax, az := x+voxel.DirOffsetX[dir], z+voxel.DirOffsetZ[dir]
		ai := -1
		if uint(ax) < uint(w) && uint(az) < uint(h) {
			if c := chf.Cells[ax+az*w]; uint(l) < uint(c.Count) {
				ai = int(c.Index) + l
			}
		}
		if ai < 0 {
			db.corrupt(x, z, l, dir)
		} else if db.regions[ai] != reg {
			db.queue = append(db.queue, x, z, si)
			return
		}
	}
}

// heightData fills the height patch of a polygon (Recast's getHeightData):
// the floor of the first span of region reg in each column, then a
// breadth-first flood along the links from the region's edge spans into the
// columns still unknown. With reg MultipleRegions, or when no span of the
// patch is in reg, the flood starts from one span near the polygon's centre
// (seedFromCentre).
func (db *detailBuilder) heightData(p []uint16, reg uint16) {
	hp := &db.hp
	chf := db.chf
	bs := db.bs
	for k := range hp.data {
		hp.data[k] = unsetHeight
	}
	db.queue = db.queue[:0]
	empty := true
	w := chf.Width
	cells := chf.Cells
	if reg != MultipleRegions && db.index != nil {
		// The same spans in the same order from the regions' index.
		for hz := 0; hz < hp.height; hz++ {
			z := hp.zmin + hz + bs
			lo := hp.xmin + bs + z*w
			from, to := db.index.row(reg, lo, lo+hp.width-1)
			for k := from; k < to; k++ {
				col, si := int(db.index.cols[k]), int(db.index.spans[k])
				hp.data[hz*hp.width+col-lo] = chf.Spans[si].Y
				empty = false
				db.queueIfEdge(col-z*w, z, si, reg)
			}
		}
	} else if reg != MultipleRegions {
		for hz := 0; hz < hp.height; hz++ {
			z := hp.zmin + hz + bs
			row := hp.data[hz*hp.width : (hz+1)*hp.width]
			for hx := range row {
				x := hp.xmin + hx + bs
				c := cells[x+z*w]
				for si := int(c.Index); si < int(c.Index+c.Count); si++ {
					if db.regions[si] != reg {
						continue
					}
					row[hx] = chf.Spans[si].Y
					empty = false
					db.queueIfEdge(x, z, si, reg)
					break
				}
			}
		}
	}
	if empty {
		db.seedFromCentre(p)
	}
	for head := 0; head+2 < len(db.queue); head += 3 {
		cx, cz, ci := db.queue[head], db.queue[head+1], db.queue[head+2]
		con := chf.Spans[ci].Con
		for dir := 0; dir < 4; dir++ {
			l := int(con>>(8*uint(dir))) & 0xff
			if l == voxel.NotConnected {
				continue
			}
			ax, az := cx+voxel.DirOffsetX[dir], cz+voxel.DirOffsetZ[dir]
			hx, hz := ax-hp.xmin-bs, az-hp.zmin-bs
			if hx < 0 || hz < 0 || hx >= hp.width || hz >= hp.height {
				continue
			}
			if hp.data[hx+hz*hp.width] != unsetHeight {
				continue
			}
			// db.neighbour, inlined (the patch lies inside the grid).
			c := cells[ax+az*w]
			if uint(l) >= uint(c.Count) {
				db.corrupt(cx, cz, l, dir)
				continue
			}
			ai := int(c.Index) + l
			hp.data[hx+hz*hp.width] = chf.Spans[ai].Y
			db.queue = append(db.queue, ax, az, ai)
		}
	}
}

// centreOffsets are the 3x3 neighbourhood offsets (x, z) tried around each
// polygon vertex, in Recast's order.
var centreOffsets = [9][2]int{{0, 0}, {-1, -1}, {0, -1}, {1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}}

// dirForOffset returns the direction of a unit offset (Recast's
// rcGetDirForOffset).
func dirForOffset(dx, dz int) int {
	switch {
	case dx < 0:
		return 0
	case dz > 0:
		return 1
	case dx > 0:
		return 2
	}
	return 3
}

// seedFromCentre finds the span nearest in height to a polygon vertex (in
// the 3x3 columns around each vertex, vertices in order), walks depth-first
// along links towards the polygon's centre column (integer mean of the
// vertices) and leaves that one span as the flood's seed, with its height
// set (Recast's seedArrayWithPolyCenter). When no span is found the patch
// stays unknown.
func (db *detailBuilder) seedFromCentre(p []uint16) {
	hp := &db.hp
	chf := db.chf
	m := db.mesh
	bs := db.bs
	startX, startZ, startSpan := 0, 0, -1
	dmin := unsetHeight
	for j := 0; j < len(p) && dmin > 0; j++ {
		v := m.Verts[p[j]]
		for k := 0; k < 9 && dmin > 0; k++ {
			ax := int(v[0]) + centreOffsets[k][0]
			ay := int(v[1])
			az := int(v[2]) + centreOffsets[k][1]
			if ax < hp.xmin || ax >= hp.xmin+hp.width || az < hp.zmin || az >= hp.zmin+hp.height {
				continue
			}
			c := chf.Cells[(ax+bs)+(az+bs)*chf.Width]
			for si := int(c.Index); si < int(c.Index+c.Count) && dmin > 0; si++ {
				d := ay - int(chf.Spans[si].Y)
				if d < 0 {
					d = -d
				}
				if d < dmin {
					startX, startZ, startSpan, dmin = ax, az, si, d
				}
			}
		}
	}
	db.queue = db.queue[:0]
	if startSpan < 0 {
		return
	}
	pcx, pcz := 0, 0
	for _, vi := range p {
		pcx += int(m.Verts[vi][0])
		pcz += int(m.Verts[vi][2])
	}
	pcx /= len(p)
	pcz /= len(p)

	// Depth-first walk; hp.data marks visited columns (0 unvisited).
	for k := range hp.data {
		hp.data[k] = 0
	}
	stack := append(db.queue, startX, startZ, startSpan)
	dirs := [4]int{0, 1, 2, 3}
	cx, cz, ci := -1, -1, -1
	for len(stack) >= 3 {
		n := len(stack)
		cx, cz, ci = stack[n-3], stack[n-2], stack[n-1]
		stack = stack[:n-3]
		if cx == pcx && cz == pcz {
			break
		}
		var direct int
		if cx == pcx {
			if pcz > cz {
				direct = dirForOffset(0, 1)
			} else {
				direct = dirForOffset(0, -1)
			}
		} else if pcx > cx {
			direct = dirForOffset(1, 0)
		} else {
			direct = dirForOffset(-1, 0)
		}
		// The direct direction goes last, so it is popped first.
		dirs[direct], dirs[3] = dirs[3], dirs[direct]
		for _, dir := range dirs {
			l := chf.Spans[ci].Link(dir)
			if l == voxel.NotConnected {
				continue
			}
			nx, nz := cx+voxel.DirOffsetX[dir], cz+voxel.DirOffsetZ[dir]
			hx, hz := nx-hp.xmin, nz-hp.zmin
			if hx < 0 || hx >= hp.width || hz < 0 || hz >= hp.height {
				continue
			}
			if hp.data[hx+hz*hp.width] != 0 {
				continue
			}
			ai := db.neighbour(cx+bs, cz+bs, l, dir)
			if ai < 0 {
				continue
			}
			hp.data[hx+hz*hp.width] = 1
			stack = append(stack, nx, nz, ai)
		}
		dirs[direct], dirs[3] = dirs[3], dirs[direct]
	}
	for k := range hp.data {
		hp.data[k] = unsetHeight
	}
	db.queue = append(stack[:0], cx+bs, cz+bs, ci)
	hp.data[cx-hp.xmin+(cz-hp.zmin)*hp.width] = chf.Spans[ci].Y
}

// getHeight returns the patch height (row) at metres (fx, fz) relative to
// the mesh origin: the column floor(f/cs + 0.01), clamped into the patch;
// when unknown, the known height nearest to fy among the columns of the
// closest ring (of a spiral of up to radius rings) that has one (Recast's
// getHeight). It may return unsetHeight.
func (db *detailBuilder) getHeight(fx, fy, fz float32) uint16 {
	hp := &db.hp
	ix := int(math.Floor(float64(float32(fx*db.ics) + 0.01)))
	iz := int(math.Floor(float64(float32(fz*db.ics) + 0.01)))
	ix = min(max(ix-hp.xmin, 0), hp.width-1)
	iz = min(max(iz-hp.zmin, 0), hp.height-1)
	h := hp.data[ix+iz*hp.width]
	if h != unsetHeight {
		return h
	}
	x, z, dx, dz := 1, 0, 1, 0
	maxSize := db.radius*2 + 1
	maxIter := maxSize*maxSize - 1
	nextRingStart, nextRingIters := 8, 16
	dmin := float32(math.MaxFloat32)
	for i := 0; i < maxIter; i++ {
		nx, nz := ix+x, iz+z
		if nx >= 0 && nz >= 0 && nx < hp.width && nz < hp.height {
			if nh := hp.data[nx+nz*hp.width]; nh != unsetHeight {
				d := abs32(float32(float32(nh)*db.ch) - fy)
				if d < dmin {
					h, dmin = nh, d
				}
			}
		}
		if i+1 == nextRingStart {
			if h != unsetHeight {
				break
			}
			nextRingStart += nextRingIters
			nextRingIters += 8
		}
		if x == z || (x < 0 && x == -z) || (x > 0 && x == 1-z) {
			dx, dz = -dz, dx
		}
		x += dx
		z += dz
	}
	return h
}

func abs32(v float32) float32 {
	if v < 0 {
		return -v
	}
	return v
}

func sqrt32(v float32) float32 { return float32(math.Sqrt(float64(v))) }

// vdot2 is the x/z dot product.
func vdot2(a, b dvec) float32 { return float32(a.x*b.x) + float32(a.z*b.z) }

// vdist2 is the x/z distance.
func vdist2(p, q dvec) float32 {
	dx, dz := q.x-p.x, q.z-p.z
	return sqrt32(float32(dx*dx) + float32(dz*dz))
}

// vcross2 is the x/z cross product (p2-p1)×(p3-p1).
func vcross2(p1, p2, p3 dvec) float32 {
	u1, v1 := p2.x-p1.x, p2.z-p1.z
	u2, v2 := p3.x-p1.x, p3.z-p1.z
	return float32(u1*v2) - float32(v1*u2)
}

func sub(a, b dvec) dvec { return dvec{a.x - b.x, a.y - b.y, a.z - b.z} }

// circumCircle returns the x/z circumcircle of p1, p2, p3 (computed relative
// to p1), or (p1, 0, false) for a nearly degenerate triangle.
func circumCircle(p1, p2, p3 dvec) (dvec, float32, bool) {
	const eps = float32(1e-6)
	var v1 dvec
	v2, v3 := sub(p2, p1), sub(p3, p1)
	cp := vcross2(v1, v2, v3)
	if !(abs32(cp) > eps) {
		return p1, 0, false
	}
	v1s, v2s, v3s := vdot2(v1, v1), vdot2(v2, v2), vdot2(v3, v3)
	var c dvec
	c.x = (float32(v1s*(v2.z-v3.z)) + float32(v2s*(v3.z-v1.z)) + float32(v3s*(v1.z-v2.z))) / float32(2*cp)
	c.z = (float32(v1s*(v3.x-v2.x)) + float32(v2s*(v1.x-v3.x)) + float32(v3s*(v2.x-v1.x))) / float32(2*cp)
	r := vdist2(c, v1)
	c = dvec{c.x + p1.x, c.y + p1.y, c.z + p1.z}
	return c, r, true
}

// distPtTri returns |y difference| between p and triangle abc at p's x/z
// when p lies in it (barycentric test with 1e-4 slack), else MaxFloat32.
func distPtTri(p, a, b, c dvec) float32 {
	v0, v1, v2 := sub(c, a), sub(b, a), sub(p, a)
	dot00, dot01, dot02 := vdot2(v0, v0), vdot2(v0, v1), vdot2(v0, v2)
	dot11, dot12 := vdot2(v1, v1), vdot2(v1, v2)
	inv := 1 / (float32(dot00*dot11) - float32(dot01*dot01))
	u := float32((float32(dot11*dot02) - float32(dot01*dot12)) * inv)
	v := float32((float32(dot00*dot12) - float32(dot01*dot02)) * inv)
	const eps = float32(1e-4)
	if u >= -eps && v >= -eps && u+v <= 1+eps {
		y := a.y + float32(v0.y*u) + float32(v1.y*v)
		return abs32(y - p.y)
	}
	return math.MaxFloat32
}

// distancePtSeg returns the squared 3D distance from pt to segment pq.
func distancePtSeg(pt, p, q dvec) float32 {
	pqx, pqy, pqz := q.x-p.x, q.y-p.y, q.z-p.z
	dx, dy, dz := pt.x-p.x, pt.y-p.y, pt.z-p.z
	d := float32(pqx*pqx) + float32(pqy*pqy) + float32(pqz*pqz)
	t := float32(pqx*dx) + float32(pqy*dy) + float32(pqz*dz)
	if d > 0 {
		t /= d
	}
	t = min(max(t, 0), 1)
	dx = p.x + float32(t*pqx) - pt.x
	dy = p.y + float32(t*pqy) - pt.y
	dz = p.z + float32(t*pqz) - pt.z
	return float32(dx*dx) + float32(dy*dy) + float32(dz*dz)
}

// distancePtSeg2d returns the squared x/z distance from pt to segment pq.
func distancePtSeg2d(pt, p, q dvec) float32 {
	pqx, pqz := q.x-p.x, q.z-p.z
	dx, dz := pt.x-p.x, pt.z-p.z
	d := float32(pqx*pqx) + float32(pqz*pqz)
	t := float32(pqx*dx) + float32(pqz*dz)
	if d > 0 {
		t /= d
	}
	t = min(max(t, 0), 1)
	dx = p.x + float32(t*pqx) - pt.x
	dz = p.z + float32(t*pqz) - pt.z
	return float32(dx*dx) + float32(dz*dz)
}

// distToTriMesh returns the smallest distPtTri of p over tris, or -1 when p
// lies in none.
func distToTriMesh(p dvec, verts []dvec, tris [][4]int) float32 {
	dmin := float32(math.MaxFloat32)
	for _, t := range tris {
		if d := distPtTri(p, verts[t[0]], verts[t[1]], verts[t[2]]); d < dmin {
			dmin = d
		}
	}
	if dmin == math.MaxFloat32 {
		return -1
	}
	return dmin
}

// distToPoly returns the x/z distance² from p to the polygon's boundary,
// negated when p is inside (even-odd rule).
func distToPoly(poly []dvec, p dvec) float32 {
	dmin := float32(math.MaxFloat32)
	inside := false
	n := len(poly)
	for i, j := 0, n-1; i < n; j, i = i, i+1 {
		vi, vj := poly[i], poly[j]
		if (vi.z > p.z) != (vj.z > p.z) {
			xc := float32(float32((vj.x-vi.x)*(p.z-vi.z))/(vj.z-vi.z)) + vi.x
			if p.x < xc {
				inside = !inside
			}
		}
		dmin = min(dmin, distancePtSeg2d(p, vj, vi))
	}
	if inside {
		return -dmin
	}
	return dmin
}

// polyMinExtent returns the polygon's smallest width: over its edges, the
// largest distance of another vertex from the edge, minimised.
func polyMinExtent(verts []dvec) float32 {
	minDist := float32(math.MaxFloat32)
	n := len(verts)
	for i := 0; i < n; i++ {
		ni := (i + 1) % n
		maxEdge := float32(0)
		for j := 0; j < n; j++ {
			if j == i || j == ni {
				continue
			}
			maxEdge = max(maxEdge, distancePtSeg2d(verts[j], verts[i], verts[ni]))
		}
		minDist = min(minDist, maxEdge)
	}
	return sqrt32(minDist)
}

// jitterX and jitterZ are Recast's sample jitter in [-1, 1].
func jitterX(i int) float32 {
	return float32(float32(float32((uint32(i)*0x8da6b343)&0xffff)/65535)*2) - 1
}

func jitterZ(i int) float32 {
	return float32(float32(float32((uint32(i)*0xd8163841)&0xffff)/65535)*2) - 1
}

// triangulateHull triangulates the hull (vertex numbers in order) without
// inner points: it starts at the ear of smallest perimeter whose tip is a
// polygon vertex (number < nin), then adds, on the left or the right, the
// triangle of smaller perimeter (Recast's triangulateHull).
func (db *detailBuilder) triangulateHull(nin int) {
	verts, hull := db.verts, db.hull
	nhull := len(hull)
	start, left, right := 0, 1, nhull-1
	dmin := float32(math.MaxFloat32)
	for i := 0; i < nhull; i++ {
		if hull[i] >= nin {
			continue
		}
		pi, ni := prev(i, nhull), next(i, nhull)
		pv, cv, nv := verts[hull[pi]], verts[hull[i]], verts[hull[ni]]
		d := vdist2(pv, cv) + vdist2(cv, nv) + vdist2(nv, pv)
		if d < dmin {
			start, left, right, dmin = i, ni, pi, d
		}
	}
	db.tris = append(db.tris, [4]int{hull[start], hull[left], hull[right], 0})
	for next(left, nhull) != right {
		nleft, nright := next(left, nhull), prev(right, nhull)
		cvl, nvl := verts[hull[left]], verts[hull[nleft]]
		cvr, nvr := verts[hull[right]], verts[hull[nright]]
		dleft := vdist2(cvl, nvl) + vdist2(nvl, cvr)
		dright := vdist2(cvr, nvr) + vdist2(cvl, nvr)
		if dleft < dright {
			db.tris = append(db.tris, [4]int{hull[left], hull[nleft], hull[right], 0})
			left = nleft
		} else {
			db.tris = append(db.tris, [4]int{hull[left], hull[nright], hull[right], 0})
			right = nright
		}
	}
}

// buildPolyDetail builds the sub-mesh of one polygon (local metres) into
// db.verts and db.tris (Recast's buildPolyDetail).
func (db *detailBuilder) buildPolyDetail(in []dvec) {
	nin := len(in)
	sd, ch := db.sampleD, db.ch
	db.verts = append(db.verts[:0], in...)
	db.hull = db.hull[:0]
	db.tris = db.tris[:0]
	minExtent := polyMinExtent(db.verts)

	// Edges, each sampled in a fixed direction (smaller x, or smaller z when
	// x is equal within 1e-6) so both polygons of an edge agree.
	edge := &db.edgeVerts
	for i, j := 0, nin-1; i < nin; j, i = i, i+1 {
		vj, vi := in[j], in[i]
		swapped := false
		if abs32(vj.x-vi.x) < 1e-6 {
			if vj.z > vi.z {
				vj, vi = vi, vj
				swapped = true
			}
		} else if vj.x > vi.x {
			vj, vi = vi, vj
			swapped = true
		}
		dx, dy, dz := vi.x-vj.x, vi.y-vj.y, vi.z-vj.z
		d := sqrt32(float32(dx*dx) + float32(dz*dz))
		nn := 1 + int(math.Floor(float64(d/sd)))
		if nn >= detailMaxVertsPerEdge {
			nn = detailMaxVertsPerEdge - 1
		}
		if len(db.verts)+nn >= detailMaxVerts {
			nn = detailMaxVerts - 1 - len(db.verts)
		}
		db.hull = append(db.hull, j)
		if nn < 1 {
			continue
		}
		for k := 0; k <= nn; k++ {
			u := float32(k) / float32(nn)
			pos := dvec{vj.x + float32(dx*u), vj.y + float32(dy*u), vj.z + float32(dz*u)}
			if h := db.getHeight(pos.x, pos.y, pos.z); h != unsetHeight {
				pos.y = float32(float32(h) * ch)
			}
			edge[k] = pos
		}
		// Keep the samples that deviate by more than the max error
		// (Douglas-Peucker from the two ends).
		var idx [detailMaxVertsPerEdge]int
		idx[0], idx[1] = 0, nn
		nidx := 2
		maxErr2 := float32(db.maxErr * db.maxErr)
		for k := 0; k < nidx-1; {
			a, b := idx[k], idx[k+1]
			maxd := float32(0)
			maxi := -1
			for m := a + 1; m < b; m++ {
				if dev := distancePtSeg(edge[m], edge[a], edge[b]); dev > maxd {
					maxd, maxi = dev, m
				}
			}
			if maxi != -1 && maxd > maxErr2 {
				copy(idx[k+2:nidx+1], idx[k+1:nidx])
				idx[k+1] = maxi
				nidx++
			} else {
				k++
			}
		}
		if swapped {
			for k := nidx - 2; k > 0; k-- {
				db.hull = append(db.hull, len(db.verts))
				db.verts = append(db.verts, edge[idx[k]])
			}
		} else {
			for k := 1; k < nidx-1; k++ {
				db.hull = append(db.hull, len(db.verts))
				db.verts = append(db.verts, edge[idx[k]])
			}
		}
	}

	if minExtent < float32(sd*2) {
		db.triangulateHull(nin)
		db.setTriFlags()
		return
	}
	db.triangulateHull(nin)
	if len(db.tris) == 0 {
		return
	}

	// Inner samples on the sd grid, at least sd/2 inside the polygon.
	bmin, bmax := in[0], in[0]
	for _, v := range in[1:] {
		bmin = dvec{min(bmin.x, v.x), min(bmin.y, v.y), min(bmin.z, v.z)}
		bmax = dvec{max(bmax.x, v.x), max(bmax.y, v.y), max(bmax.z, v.z)}
	}
	x0 := int(math.Floor(float64(bmin.x / sd)))
	x1 := int(math.Ceil(float64(bmax.x / sd)))
	z0 := int(math.Floor(float64(bmin.z / sd)))
	z1 := int(math.Ceil(float64(bmax.z / sd)))
	db.samples = db.samples[:0]
	for z := z0; z < z1; z++ {
		for x := x0; x < x1; x++ {
			pt := dvec{float32(float32(x) * sd), float32((bmax.y + bmin.y) * 0.5), float32(float32(z) * sd)}
			if distToPoly(in, pt) > -sd/2 {
				continue
			}
			db.samples = append(db.samples, [4]int{x, int(db.getHeight(pt.x, pt.y, pt.z)), z, 0})
		}
	}
	ns := len(db.samples)
	for iter := 0; iter < ns; iter++ {
		if len(db.verts) >= detailMaxVerts {
			break
		}
		var bestpt dvec
		bestd := float32(0)
		besti := -1
		for i := 0; i < ns; i++ {
			s := db.samples[i]
			if s[3] != 0 || s[1] == unsetHeight {
				continue
			}
			pt := dvec{
				float32(float32(s[0])*sd) + float32(float32(jitterX(i)*db.cs)*0.1),
				float32(float32(s[1]) * ch),
				float32(float32(s[2])*sd) + float32(float32(jitterZ(i)*db.cs)*0.1),
			}
			d := distToTriMesh(pt, db.verts, db.tris)
			if d < 0 {
				continue
			}
			if d > bestd {
				bestd, besti, bestpt = d, i, pt
			}
		}
		if bestd <= db.maxErr || besti == -1 {
			break
		}
		db.samples[besti][3] = 1
		db.verts = append(db.verts, bestpt)
		db.delaunayHull()
	}
	if len(db.tris) > detailMaxTris {
		db.tris = db.tris[:detailMaxTris]
	}
	db.setTriFlags()
}

// setTriFlags sets bit 2k of a triangle's flags when its edge k lies on the
// hull (both ends hull vertices, in hull order).
func (db *detailBuilder) setTriFlags() {
	hull := db.hull
	nhull := len(hull)
	onHull := func(a, b int) bool {
		if a >= nhull || b >= nhull {
			return false
		}
		for j, i := nhull-1, 0; i < nhull; j, i = i, i+1 {
			if a == hull[j] && b == hull[i] {
				return true
			}
		}
		return false
	}
	for k := range db.tris {
		t := &db.tris[k]
		f := 0
		if onHull(t[0], t[1]) {
			f |= 1 << 0
		}
		if onHull(t[1], t[2]) {
			f |= 1 << 2
		}
		if onHull(t[2], t[0]) {
			f |= 1 << 4
		}
		t[3] = f
	}
}

// Edge face markers of the Delaunay triangulation.
const (
	evUndef = -1
	evHull  = -2
)

func findEdge(edges [][4]int, s, t int) int {
	for i, e := range edges {
		if (e[0] == s && e[1] == t) || (e[0] == t && e[1] == s) {
			return i
		}
	}
	return evUndef
}

func updateLeftFace(e *[4]int, s, t, f int) {
	if e[0] == s && e[1] == t && e[2] == evUndef {
		e[2] = f
	} else if e[1] == s && e[0] == t && e[3] == evUndef {
		e[3] = f
	}
}

func overlapSegSeg2d(a, b, c, d dvec) bool {
	a1 := vcross2(a, b, d)
	a2 := vcross2(a, b, c)
	if float32(a1*a2) < 0 {
		a3 := vcross2(c, d, a)
		a4 := a3 + a2 - a1
		if float32(a3*a4) < 0 {
			return true
		}
	}
	return false
}

func overlapEdges(pts []dvec, edges [][4]int, s1, t1 int) bool {
	for _, e := range edges {
		s0, t0 := e[0], e[1]
		if s0 == s1 || s0 == t1 || t0 == s1 || t0 == t1 {
			continue
		}
		if overlapSegSeg2d(pts[s0], pts[t0], pts[s1], pts[t1]) {
			return true
		}
	}
	return false
}

// delaunayHull triangulates db.verts inside db.hull by growing triangles
// from the hull edges, each completed by the point whose circumcircle is
// smallest on its left (Recast's delaunayHull).
func (db *detailBuilder) delaunayHull() {
	pts := db.verts
	npts := len(pts)
	maxEdges := npts * 10
	edges := db.edges[:0]
	nfaces := 0
	addEdge := func(s, t, l, r int) {
		if len(edges) >= maxEdges {
			return
		}
		if findEdge(edges, s, t) == evUndef {
			edges = append(edges, [4]int{s, t, l, r})
		}
	}
	hull := db.hull
	for i, j := 0, len(hull)-1; i < len(hull); j, i = i, i+1 {
		addEdge(hull[j], hull[i], evHull, evUndef)
	}
	completeFacet := func(e int) {
		const eps = float32(1e-5)
		const tol = float32(0.001)
		var s, t int
		switch {
		case edges[e][2] == evUndef:
			s, t = edges[e][0], edges[e][1]
		case edges[e][3] == evUndef:
			s, t = edges[e][1], edges[e][0]
		default:
			return
		}
		pt := npts
		var c dvec
		r := float32(-1)
		for u := 0; u < npts; u++ {
			if u == s || u == t {
				continue
			}
			if !(vcross2(pts[s], pts[t], pts[u]) > eps) {
				continue
			}
			if r < 0 {
				pt = u
				c, r, _ = circumCircle(pts[s], pts[t], pts[u])
				continue
			}
			d := vdist2(c, pts[u])
			if d > float32(r*(1+tol)) {
				continue
			} else if d < float32(r*(1-tol)) {
				pt = u
				c, r, _ = circumCircle(pts[s], pts[t], pts[u])
			} else {
				if overlapEdges(pts, edges, s, u) || overlapEdges(pts, edges, t, u) {
					continue
				}
				pt = u
				c, r, _ = circumCircle(pts[s], pts[t], pts[u])
			}
		}
		if pt < npts {
			updateLeftFace(&edges[e], s, t, nfaces)
			if k := findEdge(edges, pt, s); k == evUndef {
				addEdge(pt, s, nfaces, evUndef)
			} else {
				updateLeftFace(&edges[k], pt, s, nfaces)
			}
			if k := findEdge(edges, t, pt); k == evUndef {
				addEdge(t, pt, nfaces, evUndef)
			} else {
				updateLeftFace(&edges[k], t, pt, nfaces)
			}
			nfaces++
		} else {
			updateLeftFace(&edges[e], s, t, evHull)
		}
	}
	for cur := 0; cur < len(edges); cur++ {
		if edges[cur][2] == evUndef {
			completeFacet(cur)
		}
		if edges[cur][3] == evUndef {
			completeFacet(cur)
		}
	}
	tris := db.tris[:0]
	for i := 0; i < nfaces; i++ {
		tris = append(tris, [4]int{-1, -1, -1, -1})
	}
	for _, e := range edges {
		if e[3] >= 0 { // left face
			t := &tris[e[3]]
			if t[0] == -1 {
				t[0], t[1] = e[0], e[1]
			} else if t[0] == e[1] {
				t[2] = e[0]
			} else if t[1] == e[0] {
				t[2] = e[1]
			}
		}
		if e[2] >= 0 { // right face
			t := &tris[e[2]]
			if t[0] == -1 {
				t[0], t[1] = e[1], e[0]
			} else if t[0] == e[0] {
				t[2] = e[1]
			} else if t[1] == e[1] {
				t[2] = e[0]
			}
		}
	}
	for i := 0; i < len(tris); i++ {
		t := tris[i]
		if t[0] == -1 || t[1] == -1 || t[2] == -1 {
			tris[i] = tris[len(tris)-1]
			tris = tris[:len(tris)-1]
			i--
		}
	}
	db.edges = edges
	db.tris = tris
}
