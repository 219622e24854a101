package session

import "testing"

// TestSelection: Gen changes exactly when the selection does.
func TestSelection(t *testing.T) {
	var s Selection
	g := s.Gen()
	if !s.SetObstacle(3) || s.Obstacle() != 3 || s.Gen() == g {
		t.Fatalf("SetObstacle(3): %d, gen %d -> %d", s.Obstacle(), g, s.Gen())
	}
	g = s.Gen()
	if s.SetObstacle(3) || s.Gen() != g {
		t.Error("selecting the selected obstacle again changed Gen")
	}
	if !s.SetLink(2) || s.Link() != 2 || s.Obstacle() != 3 || s.Gen() == g {
		t.Errorf("SetLink(2): link %d, obstacle %d", s.Link(), s.Obstacle())
	}
	g = s.Gen()
	s.Clear()
	if s.Obstacle() != 0 || s.Link() != 0 || s.Gen() == g {
		t.Errorf("Clear: obstacle %d, link %d, gen %d -> %d", s.Obstacle(), s.Link(), g, s.Gen())
	}
	g = s.Gen()
	s.Clear()
	if s.Gen() != g {
		t.Error("clearing an empty selection changed Gen")
	}
}
