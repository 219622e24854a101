package ui

import (
	"context"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"navviz/render"
)

// Work off the frame.
//
// Rasterizing the scene for a camera (a sceneView build: 10-25 ms of CPU
// on city, more on a loaded machine) runs in a background job, never in
// Draw: Update asks for the view of the current camera, scene and window
// size, one job at a time, and swaps the result in when it arrives; Draw
// only writes the image of the view it has (the previous camera position
// while the next one is being rendered). A job
// is never cancelled for a newer camera: the latest camera is asked for
// when the running job ends, so a continuous orbit still shows a new view
// every job.
//
// The job reads only a snapshot of the visible overlays (visibleScene) and
// its own sceneView: two sceneViews alternate, the one Draw shows and the
// one the job fills.

// syncScenes makes every new Game build its views in Update (the tests
// that look at the pixels of the frame after an Update set it).
var syncScenes bool

// sceneJobs is the Game's background scene rendering.
type sceneJobs struct {
	runner *jobRunner[*sceneView]
	spare  *sceneView // the view the next job fills (nil: make one)
	// sync builds the view on the game goroutine, in Update, instead of
	// in a job: scripted runs (--frames, --screenshot) and tests, whose
	// frames must show the state of their own Update.
	sync bool
	// asked is the key the running job builds.
	asked viewKey
	// lastCam is the camera of the previous Update, still the number of
	// Updates since it last changed.
	lastCam render.Camera
	still   int
}

// While the camera moves (and for stillTicks Updates after), views are
// rendered at 1/movingScale of the window's resolution in each direction
// (a quarter of the pixels to fill) and scaled up; the full-resolution
// view follows when the camera stops. Scripted runs (sync) always draw at
// full resolution, so that their pictures do not depend on timing.
const (
	movingScale = 2
	stillTicks  = 12
)

// sceneWait is how long one Update waits for a rendering job: a view
// that renders faster is shown in the same tick instead of the next one
// (a tick or two less latency for each view), a slower one arrives in a
// later Update while input goes on being read at the tick rate.
const sceneWait = 8 * time.Millisecond

// newSceneJobs returns an idle scene rendering.
func newSceneJobs(sync bool) sceneJobs {
	return sceneJobs{runner: newJobRunner[*sceneView](), sync: sync, still: stillTicks}
}

// wantKey returns the key of the view this Update asks for.
func (g *Game) wantKey() viewKey {
	k := sceneKey(g.App, g.lay.view)
	if !g.scene.sync && g.scene.still < stillTicks {
		k.scale = movingScale
	}
	return k
}

// noteCamera counts the Updates since the camera last moved.
func (j *sceneJobs) noteCamera(cam render.Camera) {
	if cam != j.lastCam {
		j.lastCam, j.still = cam, 0
		return
	}
	j.still = min(j.still+1, stillTicks)
}

// drawView writes g.view into the screen at the view's rectangle.
func (g *Game) drawView(screen *ebiten.Image) { g.view.drawImage(screen) }

// syncScene makes g.view show the current camera, scene and window size:
// it swaps in a finished job's view, and starts a job for the current key
// when the shown view is out of date and no job runs (with sync, builds
// it here). It reports whether g.view changed.
func (g *Game) syncScene() bool {
	j := &g.scene
	swapped := false
	deadline := time.Now().Add(sceneWait)
	if v, ok := j.runner.waitUntil(deadline); ok {
		j.spare, g.view = g.view, v
		swapped = true
	}
	j.noteCamera(g.App.Camera)
	key := g.wantKey()
	if g.view.current(key) {
		return swapped
	}
	if running, _, _ := j.runner.progress(); running {
		return swapped
	}
	v := j.spare
	j.spare = nil
	if v == nil {
		v = &sceneView{}
	}
	snap := visibleScene(g.App.Scene)
	if j.sync {
		v.buildKey(snap, key)
		j.spare, g.view = g.view, v
		return true
	}
	j.asked = key
	j.runner.run(func(context.Context, func(done, total int)) *sceneView {
		v.buildKey(snap, key)
		return v
	})
	if v, ok := j.runner.waitUntil(deadline); ok {
		j.spare, g.view = g.view, v
		return true
	}
	return swapped
}

// waitScene blocks until g.view shows the current camera, scene and
// window size (tests and scripted frames use it to take a frame of a known
// state).
func (g *Game) waitScene() {
	for !g.view.current(g.wantKey()) {
		if v, ok := g.scene.runner.wait(); ok {
			g.scene.spare, g.view = g.view, v
			continue
		}
		g.syncScene()
		if !g.sceneBusy() && !g.view.current(g.wantKey()) {
			return // cannot happen: syncScene starts or builds it
		}
	}
}

// sceneBusy reports whether a rendering job is running.
func (g *Game) sceneBusy() bool {
	running, _, _ := g.scene.runner.progress()
	return running
}
