// Package world holds one level navigated by several agent sizes: a tile
// cache (package tilecache) per agent configuration, all built from the
// same level and edited together. An obstacle or area volume added to the
// World is added to every agent's cache, where each cache grows it by its
// own agent's radius; Update rebuilds the queued tiles of every cache;
// Snapshot and Restore cover all of them at once (docs/world.md).
//
// This is how Unity's agent types, Unreal's supported agents and a game
// running one Detour navmesh per agent size work: each agent size has a
// mesh of its own, and a change to the world changes each of them.
//
// Ids: a World's obstacle and volume ids are those of its caches, which
// get every edit in the same order and so hand out the same ids.
//
// A World is not safe for concurrent use; its meshes may be read
// (queried) between calls. Every call validates its input first and a
// call that fails changes nothing.
package world
