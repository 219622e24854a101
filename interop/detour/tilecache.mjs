// Builds Detour's tile cache of a Wavefront OBJ level with Recast
// (@recast-navigation/generators' generateTileCache, navviz's default
// settings in voxel units as build.mjs) and writes it with exportTileCache
// (a TSET file of FastLZ-compressed DTLR layers). Prints a JSON line of the
// counts, then one per layer Recast built (from its own uncompressed
// heightfield layers): position, size, height range, the cells with a span
// and the sums of their heights and areas, for navviz's reader to match.
//
//   node tilecache.mjs LEVEL.obj OUT.bin
import { writeFileSync } from 'node:fs';
import { init, exportTileCache, RecastHeightfieldLayerSet, TileCache } from '@recast-navigation/core';
import { generateTileCache } from '@recast-navigation/generators';
import { readOBJ } from './obj.mjs';

await init();
const [level, out] = process.argv.slice(2);
const { positions, indices } = readOBJ(level);

// Recast's layers as generateTileCache builds them (before compression),
// and how many of them the tile cache took.
const layers = [];
const layersOf = RecastHeightfieldLayerSet.prototype.layers;
RecastHeightfieldLayerSet.prototype.layers = function (i) {
  const l = layersOf.call(this, i);
  const n = l.width() * l.height();
  let filled = 0, heights = 0, areas = 0;
  for (let c = 0; c < n; c++) {
    const h = l.heights(c);
    if (h === 0xff) continue;
    filled++;
    heights += h;
    areas += l.areas(c);
  }
  const b = l.bmin();
  layers.push({ tlayer: i, bmin: [b.x, b.y, b.z], width: l.width(), height: l.height(),
    hmin: l.hmin(), hmax: l.hmax(), filled, heights, areas });
  return l;
};
let added = 0;
const addTile = TileCache.prototype.addTile;
TileCache.prototype.addTile = function (...args) {
  const r = addTile.apply(this, args);
  if (!(r.status & 0x80000000)) added++; // DT_FAILURE
  return r;
};

const { success, navMesh, tileCache, error } = generateTileCache(positions, indices, {
  cs: 0.3, ch: 0.2, tileSize: 64, walkableSlopeAngle: 45, walkableHeight: 10, walkableClimb: 4,
  walkableRadius: 2, maxSimplificationError: 1.3, mergeRegionArea: 20,
  maxVertsPerPoly: 6, detailSampleDist: 6, detailSampleMaxError: 1,
  expectedLayersPerTile: 4, maxObstacles: 16,
});
if (!success) throw new Error(`generateTileCache: ${error}`);
writeFileSync(out, exportTileCache(navMesh, tileCache));
let tiles = 0, polys = 0;
for (let i = 0; i < navMesh.getMaxTiles(); i++) {
  const h = navMesh.getTile(i).header();
  if (!h) continue;
  tiles++;
  polys += h.polyCount();
}
console.log(JSON.stringify({ tileCache: out, layers: layers.length, added, navMeshTiles: tiles, polys }));
for (const l of layers) console.log(JSON.stringify(l));
