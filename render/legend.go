package render

import (
	"fmt"
	"image/color"

	"navviz/assets"
	"navviz/tilecache"
)

// LegendEntry is one line of an overlay's legend: a colour swatch (none
// when Plain), a short label and what it means.
type LegendEntry struct {
	Col     color.RGBA
	Plain   bool
	Label   string
	Meaning string
}

// OverlayLegend returns the legend of the overlay called name: its colour
// keys (each with a swatch) or, for an overlay without fixed colours, one
// plain entry saying how it is coloured. navviz's View panel and the
// scenario shots draw legends from it, so both say the same. An unknown
// name gives one plain entry with the name.
func OverlayLegend(name string) []LegendEntry {
	key := func(c color.RGBA, label, meaning string) LegendEntry {
		return LegendEntry{Col: c, Label: label, Meaning: meaning}
	}
	plain := func(meaning string) []LegendEntry {
		return []LegendEntry{{Plain: true, Label: name, Meaning: meaning}}
	}
	polyEdges := func(fill LegendEntry) []LegendEntry {
		return []LegendEntry{fill,
			key(assets.PolyBoundaryColour, name+": boundary", "wall: edge without a neighbour (wide)"),
			key(assets.PolyInnerEdgeColour, name+": inner edge", "between two polygons of a tile (faint)"),
			key(assets.PolyTileBorderColour, name+": tile border", "portal edge to the next tile"),
		}
	}
	switch name {
	case OverlaySolid:
		return []LegendEntry{key(solidBase, name, "solid spans as boxes")}
	case OverlayWalkable:
		return []LegendEntry{key(walkableTop, name+": walkable", "walkable span top"), key(unwalkableTop, name+": not walkable", "unwalkable span top")}
	case OverlayCompact:
		return []LegendEntry{key(assets.AreaWalkableColour, name+": area 63", "walkable (default area)"), key(assets.AreaNullColour, name+": area 0", "not walkable")}
	case OverlayEroded:
		return []LegendEntry{key(erodedColour, name, "removed by the agent-radius erosion")}
	case OverlayRegions:
		return []LegendEntry{{Plain: true, Label: name, Meaning: "a colour per region id"}, key(regionBorderColour, name+": border ring", "spans of the border ring"), key(assets.RegionNoneColour, name+": no region", "walkable span in no region")}
	case OverlayContoursRaw:
		return plain("traced loops, region colour darkened")
	case OverlayContours:
		return []LegendEntry{{Plain: true, Label: name, Meaning: "simplified contours, region colour lightened"}, key(contourBorderVert, name+": border vertex", "tile-border vertex")}
	case OverlayPolys, OverlayCachePolys:
		return polyEdges(key(assets.AreaWalkableColour, name+": area 63", "walkable polygon (fill by area)"))
	case OverlayDetail:
		return []LegendEntry{{Plain: true, Label: name, Meaning: "detail triangles, alternately shaded"}, key(detailVertColour, name+": sample", "height sample vertex")}
	case OverlayTiles:
		return plain("a colour per tile position")
	case OverlayLayers, OverlayCacheLayers:
		var out []LegendEntry
		for l := range uint8(4) {
			out = append(out, key(LayerColour(l), fmt.Sprintf("%s: layer %d", name, l), fmt.Sprintf("polygons of tile layer %d", l)))
		}
		return out
	case OverlayPortals:
		return []LegendEntry{key(portalLinkedColour, name+": linked", "portal edge a link crosses"), key(portalOpenColour, name+": open", "portal edge nothing links across"),
			key(linkPosColour, name+": link +x/+z", "link arrow towards +x or +z"), key(linkNegColour, name+": link -x/-z", "link arrow towards -x or -z")}
	case OverlayPicked:
		return []LegendEntry{key(pickedOutline, name, "the picked polygon"), key(pickedNeighbour, name+": linked", "polygons it links to")}
	case OverlayObstacles:
		return []LegendEntry{key(obstacleEdge, name, "obstacle"), key(obstacleGrown, name+": grown", "footprint grown by the agent radius"), key(obstacleSelEdge, name+": selected", "the selected obstacle")}
	case OverlayOffMesh:
		return []LegendEntry{key(offMeshBoth, name, "off-mesh link, both ways (arrows show the way)"), key(offMeshOneWay, name+": one way", "off-mesh link from start to end only"),
			key(offMeshSelected, name+": selected", "the selected off-mesh link")}
	case OverlayQueue:
		return []LegendEntry{key(QueueColour(0, 2), "queue: next", "tile rebuilt next"), key(QueueColour(1, 2), "queue: last", "tile rebuilt last")}
	case OverlaySwaps:
		var out []LegendEntry
		for _, k := range []tilecache.SwapKind{tilecache.SwapKept, tilecache.SwapReplaced, tilecache.SwapAdded, tilecache.SwapRemoved} {
			out = append(out, key(SwapColour(k), "swap: "+k.String(), "layer "+k.String()+" since the last edit"))
		}
		return append(out, key(RebuiltColour(), "latest update", "tiles the latest update rebuilt"))
	case OverlayRemoved:
		return []LegendEntry{key(removedPoint, "removed span", "span the repair removed")}
	case OverlayRing:
		return []LegendEntry{key(ringPoint, "ring span", "span around the removed ones")}
	case OverlayRepairContours:
		return []LegendEntry{{Plain: true, Label: name, Meaning: "contours in region colours"}, key(contourDiffer, "contour differs", "repaired contour differs from scratch")}
	case OverlayPath:
		return []LegendEntry{key(pathLine, name, "straight path"), key(pathStart, name+": start", "start point"), key(pathEnd, name+": end", "end point")}
	case OverlayAgents:
		return []LegendEntry{key(agentMoving, name+": moving", "agent walking its path"), key(agentArrived, name+": arrived", "agent at its target"),
			key(agentUnreachable, name+": unreachable", "agent that cannot reach its target"), key(agentCorridor, name+": corridor", "polygons left on an agent's corridor")}
	case OverlaySelection:
		return plain("yellow box: the selected tile")
	}
	return plain("")
}
