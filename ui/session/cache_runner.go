package session

import (
	"context"
	"fmt"
	"slices"
	"time"

	"navviz/core/level"
	"navviz/core/pipeline"
	"navviz/tilecache"
	"navviz/world"
)

// The background build of the tile caches (cacheRunner, a jobRunner).

// cacheResult is what a background cache build hands back.
type cacheResult struct {
	World *world.World
	Level string
	Wall  time.Duration
	Err   error
	// Carry says the build follows a change of the agent list: the
	// obstacles and volumes in place go over into the new World.
	Carry bool
}

// CacheRunner builds tile caches off the game loop, as buildRunner does
// plain builds (see jobRunner).
type CacheRunner struct {
	*JobRunner[cacheResult]
}

// NewCacheRunner returns an idle runner.
func NewCacheRunner() *CacheRunner { return &CacheRunner{NewJobRunner[cacheResult]()} }

// Start cancels any running cache build and builds a World of soup (named
// level) with a copy of s and of agents (carry: see cacheResult).
func (r *CacheRunner) Start(soup *level.Soup, s pipeline.NavSettings, agents []world.Agent, lvl string, carry bool) {
	s = DetachSettings(s)
	agents = slices.Clone(agents)
	r.Run(func(ctx context.Context, progress func(done, total int)) cacheResult {
		t0 := time.Now()
		w, err := buildCache(ctx, soup, &s, agents, progress)
		return cacheResult{World: w, Level: lvl, Wall: time.Since(t0), Err: err, Carry: carry}
	})
}

// buildCache builds the World of soup: one tile cache per agent
// (world.Build), progress counting the tiles of all of them.
func buildCache(ctx context.Context, soup *level.Soup, s *pipeline.NavSettings, agents []world.Agent, progress func(done, total int)) (*world.World, error) {
	if soup == nil {
		return nil, fmt.Errorf("ui: no level to build a cache of")
	}
	return world.Build(ctx, *s, soup, agents, tilecache.Options{Progress: AgentsProgress(len(agents), progress)})
}

// AgentsProgress turns the progress of n builds made one after the other
// (each counting its tiles from 1, never concurrently) into one count
// over all of them.
func AgentsProgress(n int, progress func(done, total int)) func(done, total int) {
	if progress == nil {
		return nil
	}
	agent, last := 0, 0
	return func(done, total int) {
		if done <= last && agent+1 < n {
			agent++ // the next agent's build started
		}
		last = done
		progress(agent*total+done, n*total)
	}
}
