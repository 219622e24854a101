package session

import (
	"context"
	"fmt"

	"navviz/core/level"
	"navviz/core/pipeline"
)

// The background plain build (buildRunner, a jobRunner) and its progress
// bar.

// buildResult is what a background build hands back to the game loop.
type buildResult struct {
	Build *pipeline.Build
	Err   error
}

// BuildRunner runs pipeline.BuildLevel off the game loop (see jobRunner).
type BuildRunner struct {
	*JobRunner[buildResult]
}

// NewBuildRunner returns an idle runner.
func NewBuildRunner() *BuildRunner { return &BuildRunner{NewJobRunner[buildResult]()} }

// Start cancels any running build and starts building soup with a copy of
// s (the caller may go on editing s). Progress and the result are for the
// new build only.
func (r *BuildRunner) Start(soup *level.Soup, s pipeline.NavSettings) {
	s = DetachSettings(s)
	r.Run(func(ctx context.Context, progress func(done, total int)) buildResult {
		b, err := BuildLevel(ctx, soup, &s, progress)
		return buildResult{Build: b, Err: err}
	})
}

// BuildLevel indexes soup and runs the plain build with stages kept.
func BuildLevel(ctx context.Context, soup *level.Soup, s *pipeline.NavSettings, progress func(done, total int)) (*pipeline.Build, error) {
	chunky, err := IndexLevel(soup, "build")
	if err != nil {
		return nil, err
	}
	src, err := pipeline.NewSoupSource(soup, chunky)
	if err != nil {
		return nil, err
	}
	opt := UIBuildOptions
	opt.Progress = progress
	return pipeline.BuildLevel(ctx, s, src, opt)
}

// ProgressBar renders done of total as "[#####.....] 45/121" with width
// cells between the brackets.
func ProgressBar(done, total, width int) string {
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
