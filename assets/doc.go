// Package assets holds the defaults navviz embeds: colour palettes for
// overlays and, with the tile cache, scripted scenarios.
package assets
