package ui

import (
	"context"
	"fmt"

	"navviz/core/level"
	"navviz/core/pipeline"
	"navviz/ui/session"
)

// The background plain build (buildRunner, a jobRunner) and its progress
// bar.

// buildResult is what a background build hands back to the game loop.
type buildResult struct {
	build *pipeline.Build
	err   error
}

// buildRunner runs pipeline.BuildLevel off the game loop (see jobRunner).
type buildRunner struct {
	*session.JobRunner[buildResult]
}

// newBuildRunner returns an idle runner.
func newBuildRunner() *buildRunner { return &buildRunner{session.NewJobRunner[buildResult]()} }

// start cancels any running build and starts building soup with a copy of
// s (the caller may go on editing s). Progress and the result are for the
// new build only.
func (r *buildRunner) start(soup *level.Soup, s pipeline.NavSettings) {
	s = session.DetachSettings(s)
	r.Run(func(ctx context.Context, progress func(done, total int)) buildResult {
		b, err := buildLevel(ctx, soup, &s, progress)
		return buildResult{build: b, err: err}
	})
}

// buildLevel indexes soup and runs the plain build with stages kept.
func buildLevel(ctx context.Context, soup *level.Soup, s *pipeline.NavSettings, progress func(done, total int)) (*pipeline.Build, error) {
	chunky, err := session.IndexLevel(soup, "build")
	if err != nil {
		return nil, err
	}
	src, err := pipeline.NewSoupSource(soup, chunky)
	if err != nil {
		return nil, err
	}
	opt := uiBuildOptions
	opt.Progress = progress
	return pipeline.BuildLevel(ctx, s, src, opt)
}

// progressBar renders done of total as "[#####.....] 45/121" with width
// cells between the brackets.
func progressBar(done, total, width int) string {
	width = max(1, width)
	fill := 0
	if total > 0 {
		fill = min(width, max(0, done*width/total))
	}
	bar := make([]byte, 0, width+2)
	bar = append(bar, '[')
	for i := 0; i < width; i++ {
		if i < fill {
			bar = append(bar, '#')
		} else {
			bar = append(bar, '.')
		}
	}
	bar = append(bar, ']')
	if total <= 0 {
		return string(bar) + " starting"
	}
	return fmt.Sprintf("%s %d/%d", bar, done, total)
}
