// Package agent moves a crowd of agents over a navmesh.Mesh that changes
// while they walk (docs/agents.md): each agent follows the straight path
// (query.StraightPathDetailed) through its corridor (query.FindPath) at
// walking speed, one fixed time step at a time, and re-plans from where it
// stands as soon as a tile swap has made a polygon of its corridor stale.
// The corridor may cross off-mesh links: the agent walks each from end to
// end, standing on the link's node, and plans again only once it has
// landed.
// An agent that cannot reach its target (a partial corridor, or no polygon
// near it or its target) is Unreachable.
//
// It is a preview of how paths react to edits, not a crowd simulation:
// agents do not avoid each other (no local avoidance, no separation), have
// no radius of their own (the mesh is already eroded by the build's agent
// radius) and no acceleration.
//
// A Crowd is deterministic: its state is float32, every product that
// feeds a sum is rounded first (DESIGN.md), random draws come from one
// seeded generator in agent order, and nothing depends on map order,
// goroutines or the clock. The same seed, configuration and sequence of
// meshes and steps give the same positions bit for bit. A Crowd only
// reads the meshes it is given and is not safe for concurrent use; call
// Step on the goroutine that owns the mesh (a tile cache's Update must not
// run during a Step).
package agent
