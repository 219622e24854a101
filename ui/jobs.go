package ui

import (
	"context"
)

// Work off the frame.
//
// Projecting, cutting, sorting and batching the scene for a camera (a
// sceneView build: 25-70 ms on city, more on a loaded machine) runs in a
// background job, never in Draw: Update asks for the view of the current
// camera, scene and window size, one job at a time, and swaps the result in
// when it arrives; Draw only draws the batches of the view it has (the
// previous camera position while the next one is being projected). A job
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

// sceneJobs is the Game's background scene projection.
type sceneJobs struct {
	runner *jobRunner[*sceneView]
	spare  *sceneView // the view the next job fills (nil: make one)
	// sync builds the view on the game goroutine, in Update, instead of
	// in a job: scripted runs (--frames, --screenshot) and tests, whose
	// frames must show the state of their own Update.
	sync bool
	// asked is the key the running job builds.
	asked viewKey
}

// newSceneJobs returns an idle projection.
func newSceneJobs(sync bool) sceneJobs {
	return sceneJobs{runner: newJobRunner[*sceneView](), sync: sync}
}

// syncScene makes g.view show the current camera, scene and window size:
// it swaps in a finished job's view, and starts a job for the current key
// when the shown view is out of date and no job runs (with sync, builds
// it here). It reports whether g.view changed.
func (g *Game) syncScene() bool {
	j := &g.scene
	swapped := false
	if v, ok := j.runner.poll(); ok {
		j.spare, g.view = g.view, v
		swapped = true
	}
	key := sceneKey(g.App, g.w, g.h)
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
	return swapped
}

// waitScene blocks until g.view shows the current camera, scene and
// window size (tests and scripted frames use it to take a frame of a known
// state).
func (g *Game) waitScene() {
	for !g.view.current(sceneKey(g.App, g.w, g.h)) {
		if v, ok := g.scene.runner.wait(); ok {
			g.scene.spare, g.view = g.view, v
			continue
		}
		g.syncScene()
		if !g.sceneBusy() && !g.view.current(sceneKey(g.App, g.w, g.h)) {
			return // cannot happen: syncScene starts or builds it
		}
	}
}

// sceneBusy reports whether a projection job is running.
func (g *Game) sceneBusy() bool {
	running, _, _ := g.scene.runner.progress()
	return running
}
