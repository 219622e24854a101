package session

import (
	"navviz/core/geom"
	"navviz/core/voxel"
	"navviz/render"
)

// Previewer draws a tool's preview: the "tool-preview" overlay
// (App.previewOverlay).
type Previewer interface {
	// Preview returns the overlay; nil when there is nothing to show.
	Preview(a *App) *render.Overlay
}

// ToolEvents hears of the App's changes that the tools' state follows
// (the Game's toolBox; App.toolEvents).
type ToolEvents interface {
	// ObstacleSelected: SelectObstacle selected o.
	ObstacleSelected(o voxel.Obstacle)
	// CacheReplaced: a new cache was installed (restored false) or a
	// snapshot restored into the cache; gestures on its shapes end.
	CacheReplaced(restored bool)
}

// WorldPoint returns the level point under pixel (xPx, yPx) of a wPx x hPx
// view: the first level triangle the camera ray meets, else the level's
// floor plane (pickPoint, the Level picking the tile selection uses).
func (a *App) WorldPoint(xPx, yPx float64, wPx, hPx int) (geom.Vec3, bool) {
	o, d := a.Camera.Ray(xPx, yPx, wPx, hPx)
	return PickPoint(a.soup, o, d)
}

// PreviewOverlay returns the active tool's preview (App.toolPreview), an
// empty overlay when it shows nothing.
func (a *App) PreviewOverlay() *render.Overlay {
	if a.toolPreview != nil {
		if o := a.toolPreview.Preview(a); o != nil {
			return o
		}
	}
	return render.PreviewOverlay(nil, 0, nil, true)
}
