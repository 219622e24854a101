// Reads a Wavefront OBJ level's positions and triangle indices (faces fanned),
// as the harness's scripts give them to Recast.
import { readFileSync } from 'node:fs';

export function readOBJ(path) {
  const positions = [];
  const indices = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f[0] === 'v') positions.push(+f[1], +f[2], +f[3]);
    if (f[0] === 'f') {
      const n = positions.length / 3;
      const ix = f.slice(1).map((s) => {
        const i = parseInt(s.split('/')[0], 10);
        return i < 0 ? n + i : i - 1;
      });
      for (let k = 1; k + 1 < ix.length; k++) indices.push(ix[0], ix[k], ix[k + 1]);
    }
  }
  return { positions, indices };
}
