package ui

import (
	"sync"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"navviz/render"
)

// Work off the frame.
//
// Rasterizing the scene for a camera (a sceneView build: 10-25 ms of CPU
// on city, more on a loaded machine) never runs in Draw: each Update posts
// the view it wants (the current camera, scene and window size), and a
// renderer goroutine draws the newest request as soon as it is free, one
// at a time, into a view of its own; Update takes the newest finished view
// and Draw writes it (the previous camera position while the next one is
// being rendered). The renderer starts the next request the moment it
// finishes one, not at the next tick: while the camera moves it renders
// back to back, and a view is shown in the first Update after it is done.
//
// A render reads only a snapshot of the visible overlays (visibleScene)
// and its own sceneView. Three views take turns: the one Draw shows, the
// newest finished one and the one being rendered.

// syncScenes makes every new Game build its views in Update (the tests
// that look at the pixels of the frame after an Update set it).
var syncScenes bool

// sceneJobs is the Game's background scene rendering.
type sceneJobs struct {
	// sync builds the view on the game goroutine, in Update, instead of
	// in the renderer: scripted runs (--frames, --screenshot) and tests,
	// whose frames must show the state of their own Update.
	sync bool
	r    *viewRenderer
	// lastCam is the camera of the previous Update, still the number of
	// Updates since it last changed.
	lastCam render.Camera
	still   int
	// spare is the view the sync path builds into next.
	spare *sceneView
}

// viewRequest is a view to render: its key and the scene snapshot.
type viewRequest struct {
	key  viewKey
	snap *render.Scene
}

// viewRenderer renders the newest requested view on its own goroutine,
// which runs while there are requests and ends when there are none.
type viewRenderer struct {
	mu      sync.Mutex
	want    *viewRequest // newest request not started yet
	asked   viewKey      // key of the newest request (started or not)
	hasAsk  bool
	running bool          // the goroutine is rendering
	ready   *sceneView    // newest finished view not taken yet
	free    []*sceneView  // views to render into
	done    chan struct{} // a view finished (capacity 1: a doorbell)
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

// sceneWait is how long one Update waits for a view being rendered: a
// view that is done sooner is shown in the same tick instead of the next
// one (a tick less latency), a slower one arrives in a later Update while
// input goes on being read at the tick rate.
const sceneWait = 8 * time.Millisecond

// newSceneJobs returns an idle scene rendering.
func newSceneJobs(sync bool) sceneJobs {
	return sceneJobs{sync: sync, still: stillTicks, r: &viewRenderer{done: make(chan struct{}, 1)}}
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

// request asks for the view of key, replacing an older request that has
// not started, unless key is the newest one asked for already.
func (r *viewRenderer) request(key viewKey, snap func() *render.Scene) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.hasAsk && r.asked == key {
		return
	}
	r.want, r.asked, r.hasAsk = &viewRequest{key: key, snap: snap()}, key, true
	if !r.running {
		r.running = true
		go r.loop()
	}
}

// loop renders requests until none is left.
func (r *viewRenderer) loop() {
	for {
		r.mu.Lock()
		req := r.want
		if req == nil {
			r.running = false
			r.mu.Unlock()
			return
		}
		r.want = nil
		var v *sceneView
		if n := len(r.free); n > 0 {
			v, r.free = r.free[n-1], r.free[:n-1]
		} else {
			v = &sceneView{}
		}
		r.mu.Unlock()

		v.buildKey(req.snap, req.key)

		r.mu.Lock()
		if r.ready != nil {
			r.free = append(r.free, r.ready) // never shown: a newer view is done
		}
		r.ready = v
		r.mu.Unlock()
		select {
		case r.done <- struct{}{}:
		default:
		}
	}
}

// take returns the newest finished view, waiting until deadline for the
// one being rendered when none is ready; ok is false when none arrived.
func (r *viewRenderer) take(deadline time.Time) (v *sceneView, ok bool) {
	for {
		r.mu.Lock()
		v, r.ready = r.ready, nil
		busy := r.running
		r.mu.Unlock()
		if v != nil {
			return v, true
		}
		d := time.Until(deadline)
		if !busy || d <= 0 {
			return nil, false
		}
		t := time.NewTimer(d)
		select {
		case <-r.done:
		case <-t.C:
		}
		t.Stop()
	}
}

// recycle hands a view that is no longer shown back to the renderer.
func (r *viewRenderer) recycle(v *sceneView) {
	if v == nil {
		return
	}
	r.mu.Lock()
	r.free = append(r.free, v)
	r.mu.Unlock()
}

// busy reports whether a view is being rendered or waits to be.
func (r *viewRenderer) busy() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.running || r.want != nil || r.ready != nil
}

// syncScene makes g.view show the current camera, scene and window size:
// it swaps in the newest finished view and asks the renderer for the
// current key when the shown view is out of date (with sync, builds it
// here). It reports whether g.view changed.
func (g *Game) syncScene() bool {
	j := &g.scene
	j.noteCamera(g.App.Camera)
	key := g.wantKey()
	if j.sync {
		if g.view.current(key) {
			return false
		}
		v := j.spare
		if v == nil {
			v = &sceneView{}
		}
		v.buildKey(visibleScene(g.App.Scene()), key)
		j.spare, g.view = g.view, v
		return true
	}
	if g.view.current(key) {
		if v, ok := j.r.take(time.Time{}); ok {
			j.r.recycle(v) // an older view finished after the current one
		}
		return false
	}
	j.r.request(key, func() *render.Scene { return visibleScene(g.App.Scene()) })
	v, ok := j.r.take(time.Now().Add(sceneWait))
	if ok {
		j.r.recycle(g.view)
		g.view = v
	}
	return ok
}

// waitScene blocks until g.view shows the current camera, scene and
// window size (tests and scripted frames use it to take a frame of a known
// state).
func (g *Game) waitScene() {
	for !g.view.current(g.wantKey()) {
		if !g.syncScene() && !g.scene.sync {
			if v, ok := g.scene.r.take(time.Now().Add(time.Minute)); ok {
				g.scene.r.recycle(g.view)
				g.view = v
			}
		}
	}
}

// sceneBusy reports whether a view is being rendered.
func (g *Game) sceneBusy() bool { return !g.scene.sync && g.scene.r.busy() }
