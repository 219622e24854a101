package session

import "navviz/tilecache"

// Selection is what the cache's edits apply to: the selected obstacle
// (drawn in cyan, removed by Delete, resized by Apply) and the selected
// off-mesh link (drawn white), 0 for none. Gen changes whenever either
// does, so that the overlays drawing the selection are rebuilt.
type Selection struct {
	obstacle tilecache.ObstacleID
	link     tilecache.OffMeshLinkID
	gen      uint64
}

// Obstacle returns the selected obstacle (0: none).
func (s *Selection) Obstacle() tilecache.ObstacleID { return s.obstacle }

// Link returns the selected off-mesh link (0: none).
func (s *Selection) Link() tilecache.OffMeshLinkID { return s.link }

// Gen returns a counter that changes whenever the selection does.
func (s *Selection) Gen() uint64 { return s.gen }

// SetObstacle selects obstacle id (0: none) and reports whether that
// changed the selection.
func (s *Selection) SetObstacle(id tilecache.ObstacleID) bool {
	if s.obstacle == id {
		return false
	}
	s.obstacle = id
	s.gen++
	return true
}

// SetLink selects link id (0: none) and reports whether that changed the
// selection.
func (s *Selection) SetLink(id tilecache.OffMeshLinkID) bool {
	if s.link == id {
		return false
	}
	s.link = id
	s.gen++
	return true
}

// Clear selects nothing.
func (s *Selection) Clear() {
	s.SetObstacle(0)
	s.SetLink(0)
}
