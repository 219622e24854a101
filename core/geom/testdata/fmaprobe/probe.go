// Package fmaprobe is compiled by TestNoFusedMultiplyAdd next to the
// module's packages to prove, on every target, that the guard sees what it
// looks for: each function here is fused or calls an inexact math function.
package fmaprobe

import "math"

// MulAdd64 is fused into one multiply-add by every target that fuses.
func MulAdd64(x, y, z float64) float64 { return x*y + z }

// MulAdd32 is the float32 form of MulAdd64.
func MulAdd32(x, y, z float32) float32 { return x*y + z }

// Hypot calls math.Hypot, whose bits differ between amd64 (assembly) and
// the generic Go code other targets compile with fusion.
func Hypot(x, y float64) float64 { return math.Hypot(x, y) }
