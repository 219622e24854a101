package render

import (
	"image/color"

	"navviz/core/agent"
	"navviz/core/geom"
	"navviz/core/navmesh"
)

// OverlayAgents is the name of AgentsOverlay: a crowd of agents
// (core/agent; navviz's Agents tool).
const OverlayAgents = "agents"

// Look of the agents overlay.
var (
	agentMoving      = color.RGBA{255, 200, 0, 255}
	agentArrived     = color.RGBA{60, 220, 90, 255}
	agentUnreachable = color.RGBA{235, 30, 30, 255}
	agentCorridor    = color.RGBA{170, 90, 255, 50}
	agentPathMoving  = color.RGBA{255, 255, 255, 255}
	agentPathRed     = color.RGBA{255, 130, 130, 255}
	agentTargetMark  = color.RGBA{255, 60, 220, 255}
)

const (
	// agentRadiusM is the radius of an agent's disc, metres (the default
	// build's agent radius).
	agentRadiusM = 0.6
	// agentHeightM is the height of an agent's body line, metres.
	agentHeightM = 1.8
	// agentDiscSides is the number of sides of the disc.
	agentDiscSides = 12
	// agentPointPx is the size of an agent's head point, pixels.
	agentPointPx = 9
)

// AgentColour returns the colour an agent in state s is drawn in: amber
// moving, green arrived, red unreachable (the cache's polygons are blue).
func AgentColour(s agent.State) color.RGBA {
	switch s {
	case agent.Arrived:
		return agentArrived
	case agent.Unreachable:
		return agentUnreachable
	}
	return agentMoving
}

// discXZ is a unit circle of agentDiscSides points in the XZ plane
// (geom.SinCos, so the overlay is the same bits everywhere).
var discXZ = func() [agentDiscSides][2]float32 {
	var d [agentDiscSides][2]float32
	for i := range d {
		s, c := geom.SinCos(float64(i) * 2 * 3.141592653589793 / agentDiscSides)
		d[i] = [2]float32{float32(c), float32(s)}
	}
	return d
}()

// AgentsOverlay returns the overlay "agents": for every agent its
// remaining corridor tinted translucent violet over the polygons' detail
// triangles (skipping stale references), its remaining straight path as a
// line (white, light red when unreachable) ending in a magenta target
// mark, and the agent as a disc agentRadiusM wide at its feet with a body
// line agentHeightM tall and a point on top, in AgentColour. A nil mesh
// draws no corridors. It only reads m.
func AgentsOverlay(m *navmesh.Mesh, agents []agent.Agent) *Overlay {
	o := surfaceOverlay(OverlayAgents)
	o.PointSizePx = agentPointPx
	if m != nil {
		for _, a := range agents {
			for _, r := range a.Corridor {
				tref, pi, err := m.DecodeRef(r)
				if err != nil {
					continue
				}
				t, err := m.Tile(tref)
				if err != nil {
					continue
				}
				t.PolyTris(pi, func(_ int, p, q, s geom.Vec3, _ uint8) {
					o.Tris = append(o.Tris, Vertex{up(t, p, portalLiftRows), agentCorridor},
						Vertex{up(t, q, portalLiftRows), agentCorridor}, Vertex{up(t, s, portalLiftRows), agentCorridor})
				})
			}
		}
	}
	lift := func(p geom.Vec3) geom.Vec3 { p.Y += pathLiftM; return p }
	for _, a := range agents {
		col := AgentColour(a.State)
		line := agentPathMoving
		if a.State == agent.Unreachable {
			line = agentPathRed
		}
		for i := 1; i < len(a.Path); i++ {
			o.Lines = append(o.Lines, Vertex{lift(a.Path[i-1]), line}, Vertex{lift(a.Path[i]), line})
		}
		if len(a.Path) > 1 {
			appendMark(o, lift(a.Path[len(a.Path)-1]), agentTargetMark)
		}
		c := lift(a.Pos)
		for i := range discXZ {
			j := (i + 1) % len(discXZ)
			p := c.Add(geom.V3(float32(agentRadiusM*discXZ[i][0]), 0, float32(agentRadiusM*discXZ[i][1])))
			q := c.Add(geom.V3(float32(agentRadiusM*discXZ[j][0]), 0, float32(agentRadiusM*discXZ[j][1])))
			o.Tris = append(o.Tris, Vertex{c, col}, Vertex{q, col}, Vertex{p, col})
		}
		head := c.Add(geom.V3(0, agentHeightM, 0))
		o.Lines = append(o.Lines, Vertex{c, col}, Vertex{head, col})
		o.Points = append(o.Points, Vertex{head, col})
	}
	return o
}
