package ui

import (
	"navviz/core/geom"
	"navviz/core/voxel"
	"navviz/render"
)

// previewer draws a tool's preview: the "tool-preview" overlay
// (App.previewOverlay).
type previewer interface {
	// preview returns the overlay; nil when there is nothing to show.
	preview(a *App) *render.Overlay
}

// toolEvents hears of the App's changes that the tools' state follows
// (the Game's toolBox; App.toolEvents).
type toolEvents interface {
	// obstacleSelected: SelectObstacle selected o.
	obstacleSelected(o voxel.Obstacle)
	// cacheReplaced: a new cache was installed (restored false) or a
	// snapshot restored into the cache; gestures on its shapes end.
	cacheReplaced(restored bool)
}

// worldPoint returns the level point under pixel (xPx, yPx) of a wPx x hPx
// view: the first level triangle the camera ray meets, else the level's
// floor plane (pickPoint, the Level picking the tile selection uses).
func (a *App) worldPoint(xPx, yPx float64, wPx, hPx int) (geom.Vec3, bool) {
	o, d := a.Camera.Ray(xPx, yPx, wPx, hPx)
	return pickPoint(a.Soup, o, d)
}

// previewOverlay returns the active tool's preview (App.toolPreview), an
// empty overlay when it shows nothing.
func (a *App) previewOverlay() *render.Overlay {
	if a.toolPreview != nil {
		if o := a.toolPreview.preview(a); o != nil {
			return o
		}
	}
	return render.PreviewOverlay(nil, 0, nil, true)
}
