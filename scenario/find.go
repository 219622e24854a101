package scenario

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Finding steps in a report (`navmesh scenario FILE --find Q`): the steps
// where a chosen thing happened, read from report.json's values.

// Find is a parsed --find query (ParseFind).
type Find struct {
	// Kind is what is looked for: "scratch", "differ", "failed", "tile",
	// "path-change" or "mesh-change".
	Kind string
	// Precondition narrows "scratch" to layers whose failed precondition
	// is this one ("a" to "d"; "" any).
	Precondition string
	// TX, TZ are the tile of "tile".
	TX, TZ int
	// ChangeM is the least change of the path's length of "path-change",
	// metres.
	ChangeM float64
}

// FindSyntax lists the queries ParseFind takes.
const FindSyntax = "scratch, scratch=a|b|c|d, differ, failed, tile=X,Z, path-change=M or mesh-change"

// ParseFind parses a --find query: "scratch" (an update built a layer from
// scratch; "scratch=c" only those whose precondition (c) failed),
// "differ" (a repaired layer's contours differ from the from-scratch
// ones), "failed" (a tile's rebuild failed), "tile=X,Z" (tile X,Z was
// rebuilt), "path-change=M" (the path's length changed by more than M
// metres from the last path reported before, or the path was found or lost)
// or "mesh-change" (the mesh hash differs from the last one reported).
func ParseFind(q string) (Find, error) {
	kind, arg, hasArg := strings.Cut(q, "=")
	f := Find{Kind: kind}
	bad := func(why string) (Find, error) {
		return Find{}, fmt.Errorf("--find %q: %s (want %s)", q, why, FindSyntax)
	}
	switch kind {
	case "differ", "failed", "mesh-change":
		if hasArg {
			return bad("takes no value")
		}
	case "scratch":
		if hasArg {
			if len(arg) != 1 || arg[0] < 'a' || arg[0] > 'd' {
				return bad(fmt.Sprintf("precondition %q", arg))
			}
			f.Precondition = arg
		}
	case "tile":
		xs, zs, ok := strings.Cut(arg, ",")
		x, errX := strconv.Atoi(xs)
		z, errZ := strconv.Atoi(zs)
		if !ok || errX != nil || errZ != nil || x < 0 || z < 0 {
			return bad(fmt.Sprintf("tile %q", arg))
		}
		f.TX, f.TZ = x, z
	case "path-change":
		m, err := strconv.ParseFloat(arg, 64)
		if !hasArg || err != nil || math.IsNaN(m) || math.IsInf(m, 0) || m < 0 {
			return bad(fmt.Sprintf("metres %q", arg))
		}
		f.ChangeM = m
	default:
		return bad("unknown query")
	}
	return f, nil
}

// Found is a step a Find matched, and why.
type Found struct {
	Step int    `json:"step"`
	Kind string `json:"kind"`
	Why  string `json:"why"`
}

// Steps returns the steps of rep that f matches, in step order.
func (f Find) Steps(rep *Report) []Found {
	var out []Found
	lastHash := rep.MeshHash
	var lastPath *PathReport
	for i := range rep.Steps {
		s := &rep.Steps[i]
		var why []string
		switch f.Kind {
		case "scratch", "differ":
			if s.Update == nil {
				break
			}
			for _, l := range s.Update.Layers {
				switch {
				case f.Kind == "scratch" && !l.Repaired && (f.Precondition == "" || l.Precondition == f.Precondition):
					why = append(why, fmt.Sprintf("tile %d,%d layer %d from scratch: %s", l.TX, l.TZ, l.Layer, l.Verdict))
				case f.Kind == "differ" && l.Contours == "DIFFER":
					why = append(why, fmt.Sprintf("tile %d,%d layer %d contours differ from scratch: %s", l.TX, l.TZ, l.Layer, l.Diff))
				}
			}
		case "failed":
			if s.Update != nil {
				for _, t := range s.Update.Failed {
					why = append(why, fmt.Sprintf("tile %d,%d failed: %s", t.TX, t.TZ, t.Error))
				}
			}
		case "tile":
			if s.Update != nil {
				for _, t := range s.Update.Tiles {
					if t.TX == f.TX && t.TZ == f.TZ {
						why = append(why, fmt.Sprintf("tile %d,%d rebuilt (%s, %d layers built, %d repaired)", t.TX, t.TZ, t.Rebuild, t.LayersBuilt, t.LayersRepaired))
					}
				}
			}
		case "path-change":
			p := s.Path
			if p == nil {
				break
			}
			switch {
			case lastPath == nil:
			case p.Found != lastPath.Found:
				why = append(why, fmt.Sprintf("path found %v, was %v", p.Found, lastPath.Found))
			case math.Abs(p.LengthM-lastPath.LengthM) > f.ChangeM:
				why = append(why, fmt.Sprintf("path length %.2f m, was %.2f m (%+.2f m)", p.LengthM, lastPath.LengthM, p.LengthM-lastPath.LengthM))
			}
			lastPath = p
		case "mesh-change":
			if s.MeshHash == "" {
				break
			}
			if s.MeshHash != lastHash {
				why = append(why, fmt.Sprintf("mesh hash %s, was %s", s.MeshHash, lastHash))
			}
			lastHash = s.MeshHash
		}
		if len(why) > 0 {
			out = append(out, Found{Step: s.Step, Kind: s.Kind, Why: strings.Join(why, "; ")})
		}
	}
	return out
}
