// Builds Detour's own tiled navmesh of a Wavefront OBJ level with Recast
// (@recast-navigation/generators, Recast and Detour compiled to WASM) under
// navviz's default settings in Recast's voxel units, and writes it with
// exportNavMesh (an MSET file). Prints one JSON line of its counts.
//
//   node build.mjs LEVEL.obj OUT.bin
import { writeFileSync } from 'node:fs';
import { init, exportNavMesh } from '@recast-navigation/core';
import { generateTiledNavMesh } from '@recast-navigation/generators';
import { readOBJ } from './obj.mjs';

await init();
const [level, out] = process.argv.slice(2);
const { positions, indices } = readOBJ(level);
// navviz's pipeline.DefaultSettings: cell 0.3 m, rows 0.2 m, agent 2 m
// high (10 rows), 0.6 m radius (2 cells), 0.9 m climb (4 rows), 45°,
// tiles of 64 cells, edges up to 12 m (40 cells).
const { success, navMesh, error } = generateTiledNavMesh(positions, indices, {
  cs: 0.3, ch: 0.2, tileSize: 64, walkableSlopeAngle: 45, walkableHeight: 10, walkableClimb: 4,
  walkableRadius: 2, maxEdgeLen: 40, maxSimplificationError: 1.3, minRegionArea: 8, mergeRegionArea: 20,
  maxVertsPerPoly: 6, detailSampleDist: 6, detailSampleMaxError: 1,
});
if (!success) throw new Error(`generateTiledNavMesh: ${error}`);
writeFileSync(out, exportNavMesh(navMesh));
let tiles = 0, polys = 0;
for (let i = 0; i < navMesh.getMaxTiles(); i++) {
  const h = navMesh.getTile(i).header();
  if (!h) continue;
  tiles++;
  polys += h.polyCount() - h.offMeshConCount();
}
console.log(JSON.stringify({ mesh: out, tiles, polys }));
