// Loads a Detour navmesh file (MSET) into real Detour (@recast-navigation/core,
// Detour compiled to WASM) and answers point pairs and rays as `navmesh path`
// does on navviz's own mesh: findNearestPoly within (2, 4, 2) m, findPath,
// closestPointOnPoly for a partial corridor, findStraightPath; raycast of
// 10 m. Writes one JSON line per tile summary, pair and ray.
//
//   node check.mjs MESH.bin [--pairs FILE] [--rays FILE]
import { readFileSync } from 'node:fs';
import { init, importNavMesh, NavMeshQuery, statusToReadableString } from '@recast-navigation/core';

const DT_PARTIAL_RESULT = 1 << 6;
const halfExtents = { x: 2, y: 4, z: 2 };
const rayLengthM = 10;

function numberLines(path, n) {
  const out = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const t = line.trim();
    if (t === '' || t.startsWith('#')) continue;
    const v = t.split(/\s+/).map(Number);
    if (v.length !== n || v.some((x) => !Number.isFinite(x))) throw new Error(`${path}: bad line ${JSON.stringify(line)}`);
    out.push(v);
  }
  return out;
}

function arg(name) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
}

await init();
const file = process.argv[2];
const { navMesh } = importNavMesh(new Uint8Array(readFileSync(file)));
let tiles = 0, polys = 0, offMesh = 0, verts = 0;
for (let i = 0; i < navMesh.getMaxTiles(); i++) {
  const t = navMesh.getTile(i);
  const h = t.header();
  if (!h) continue;
  tiles++;
  polys += h.polyCount() - h.offMeshConCount();
  offMesh += h.offMeshConCount();
  verts += h.vertCount() - 2 * h.offMeshConCount();
}
console.log(JSON.stringify({ mesh: file, tiles, polys, offMesh, verts }));

const query = new NavMeshQuery(navMesh, { maxNodes: 4096 });
const v3 = (a, o) => ({ x: a[o], y: a[o + 1], z: a[o + 2] });
const arr = (p) => [p.x, p.y, p.z];
const pairsFile = arg('--pairs');
if (pairsFile) {
  numberLines(pairsFile, 6).forEach((p, i) => {
    const r = { i, status: 'none', corridor: 0, points: 0, length: 0 };
    const s = query.findNearestPoly(v3(p, 0), { halfExtents });
    const e = query.findNearestPoly(v3(p, 3), { halfExtents });
    if (!s.success || !s.nearestRef || !e.success || !e.nearestRef) {
      r.error = 'no polygon near ' + (!s.nearestRef ? 'the start' : 'the end');
      console.log(JSON.stringify(r));
      return;
    }
    r.start = arr(s.nearestPoint);
    r.end = arr(e.nearestPoint);
    const fp = query.findPath(s.nearestRef, e.nearestRef, s.nearestPoint, e.nearestPoint, { maxPathPolys: 4096 });
    if (!fp.success) {
      r.error = 'findPath: ' + statusToReadableString(fp.status);
      fp.polys.destroy();
      console.log(JSON.stringify(r));
      return;
    }
    // The corridor's length: findPath fills the array from the start and
    // leaves the rest zero.
    let n = 0;
    while (n < fp.polys.size && fp.polys.get(n) !== 0) n++;
    const corridor = [];
    for (let k = 0; k < n; k++) corridor.push(fp.polys.get(k));
    fp.polys.destroy();
    r.status = (fp.status & DT_PARTIAL_RESULT) || corridor[n - 1] !== e.nearestRef ? 'partial' : 'complete';
    r.corridor = n;
    let end = e.nearestPoint;
    if (r.status === 'partial') end = query.closestPointOnPoly(corridor[n - 1], e.nearestPoint).closestPoint;
    const sp = query.findStraightPath(s.nearestPoint, end, corridor, { maxStraightPathPoints: 4096 });
    const pts = [];
    for (let k = 0; k < sp.straightPathCount; k++) pts.push([sp.straightPath.get(3 * k), sp.straightPath.get(3 * k + 1), sp.straightPath.get(3 * k + 2)]);
    sp.straightPath.destroy();
    sp.straightPathFlags.destroy();
    sp.straightPathRefs.destroy();
    let len = 0;
    for (let k = 1; k < pts.length; k++) len += Math.hypot(pts[k][0] - pts[k - 1][0], pts[k][1] - pts[k - 1][1], pts[k][2] - pts[k - 1][2]);
    r.points = pts.length;
    r.length = len;
    console.log(JSON.stringify(r));
  });
}
const raysFile = arg('--rays');
if (raysFile) {
  numberLines(raysFile, 5).forEach((v, i) => {
    const r = { i, ray: true, hit: false, t: 1, dist: rayLengthM };
    const s = query.findNearestPoly(v3(v, 0), { halfExtents });
    const l = Math.hypot(v[3], v[4]);
    if (!s.success || !s.nearestRef || !(l > 0)) {
      r.error = 'no start';
      console.log(JSON.stringify(r));
      return;
    }
    const p = s.nearestPoint;
    const end = { x: p.x + (rayLengthM * v[3]) / l, y: p.y, z: p.z + (rayLengthM * v[4]) / l };
    const h = query.raycast(s.nearestRef, p, end);
    if (h.t < 1) {
      r.hit = true;
      r.t = h.t;
      r.dist = h.t * rayLengthM;
    }
    console.log(JSON.stringify(r));
  });
}
