package session

import (
	"context"
	"fmt"
	"sync"
	"time"

	"navviz/core/level"
	"navviz/core/pipeline"
	"navviz/core/voxel"
)

// jobRun is one run of a jobRunner's job.
type jobRun struct {
	id     uint64
	cancel context.CancelFunc
}

// jobResult is what a run hands back: its id and the job's result.
type jobResult[R any] struct {
	id  uint64
	val R
}

// JobRunner runs a job (the plain build, the cache build) off the game
// loop, one at a time. Its progress is read under a mutex; the result
// arrives on a channel that the game loop polls, so that it is applied on
// the game goroutine. Make it with newJobRunner.
type JobRunner[R any] struct {
	mu          sync.Mutex
	done, total int // progress of the running job
	running     *jobRun
	nextID      uint64
	results     chan jobResult[R]
}

// NewJobRunner returns an idle runner.
func NewJobRunner[R any]() *JobRunner[R] {
	return &JobRunner[R]{results: make(chan jobResult[R], 4)}
}

// Run cancels any running job and runs job in the background with a
// context that cancel cancels and a progress callback. Progress and the
// result are for the new job only.
func (r *JobRunner[R]) Run(job func(ctx context.Context, progress func(done, total int)) R) {
	ctx, cancel := context.WithCancel(context.Background())
	r.mu.Lock()
	if r.running != nil {
		r.running.cancel()
	}
	r.nextID++
	run := &jobRun{id: r.nextID, cancel: cancel}
	r.running = run
	r.done, r.total = 0, 0
	r.mu.Unlock()

	go func() {
		defer cancel()
		val := job(ctx, func(done, total int) {
			r.mu.Lock()
			if r.running == run {
				r.done, r.total = done, total
			}
			r.mu.Unlock()
		})
		r.results <- jobResult[R]{id: run.id, val: val}
	}()
}

// Cancel stops the running job, if any; its result is ignored.
func (r *JobRunner[R]) Cancel() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.running != nil {
		r.running.cancel()
		r.running = nil
	}
}

// Progress returns whether a job is running and its finished and total
// steps (total is 0 until the job first reports).
func (r *JobRunner[R]) Progress() (running bool, done, total int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.running != nil, r.done, r.total
}

// Poll returns the result of the current job when it has arrived; results
// of cancelled or replaced jobs are dropped.
func (r *JobRunner[R]) Poll() (R, bool) {
	for {
		select {
		case res := <-r.results:
			if r.finish(res) {
				return res.val, true
			}
		default:
			var zero R
			return zero, false
		}
	}
}

// WaitUntil is poll that waits until deadline for the current job's
// result; ok is false when no job runs or it did not finish in time.
func (r *JobRunner[R]) WaitUntil(deadline time.Time) (val R, ok bool) {
	if val, ok = r.Poll(); ok {
		return val, true
	}
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	for {
		if running, _, _ := r.Progress(); !running {
			return val, false
		}
		select {
		case res := <-r.results:
			if r.finish(res) {
				return res.val, true
			}
		case <-timer.C:
			return val, false
		}
	}
}

// Wait blocks until the result of the current job arrives and returns it;
// ok is false when no job runs. Results of replaced jobs are dropped.
func (r *JobRunner[R]) Wait() (val R, ok bool) {
	for {
		r.mu.Lock()
		running := r.running
		r.mu.Unlock()
		if running == nil {
			return val, false
		}
		if res := <-r.results; r.finish(res) {
			return res.val, true
		}
	}
}

// finish reports whether res is the result of the current job, which then
// is no longer running; results of cancelled or replaced jobs are not.
func (r *JobRunner[R]) finish(res jobResult[R]) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	current := r.running != nil && r.running.id == res.id
	if current {
		r.running = nil
	}
	return current
}

// DetachSettings returns s with its own copies of the volumes (and their
// corners) and the obstacles, for a background job while the caller goes
// on editing s.
func DetachSettings(s pipeline.NavSettings) pipeline.NavSettings {
	s.Volumes = append([]voxel.ConvexVolume(nil), s.Volumes...)
	for i := range s.Volumes {
		s.Volumes[i].VertsXZ = append([][2]float32(nil), s.Volumes[i].VertsXZ...)
	}
	s.Obstacles = append([]voxel.Obstacle(nil), s.Obstacles...)
	return s
}

// IndexLevel indexes soup's triangles for a build; what names the build
// in the error when there is no level ("ui: no level to <what>").
func IndexLevel(soup *level.Soup, what string) (*level.Chunky, error) {
	if soup == nil {
		return nil, fmt.Errorf("ui: no level to %s", what)
	}
	return level.NewChunky(soup, 256)
}
