package ui

import (
	"path/filepath"

	"github.com/ebitengine/debugui"

	"navviz/core/level"
	"navviz/ui/session"
)

// levelUI is the Level panel's view state.
type levelUI struct {
	pathField string // the level path field (nodialog builds)
}

// levelPanel lists the built-in levels and the Open… control.
func (g *Game) levelPanel(ctx *debugui.Context) {
	a := g.App
	name := a.LevelName()
	if name == "" {
		name = "(none)"
	} else if !session.IsBuiltin(name) {
		name = filepath.Base(name)
	}
	ctx.Text("Current: " + name)

	builtins := level.BuiltinNames()
	ctx.SetGridLayout([]int{-1, -1}, nil)
	ctx.Loop(len(builtins), func(i int) {
		n := builtins[i]
		ctx.Button(n).On(func() { g.RequestLoad(n) })
	})
	ctx.SetGridLayout(nil, nil)

	if hasFileDialog {
		ctx.Button(g.dialogLabel("Open…")).On(g.startOpenDialog)
	} else {
		ctx.Text("OBJ or glTF file path:")
		ctx.SetGridLayout([]int{-3, -1}, nil)
		ctx.TextField(&g.levelUI.pathField)
		ctx.Button("Open").On(func() {
			if g.levelUI.pathField != "" {
				g.RequestLoad(g.levelUI.pathField)
			}
		})
		ctx.SetGridLayout(nil, nil)
	}
	ctx.Text("Or drop an .obj, .gltf or .glb file on the window.")
	// The last error is in the message bar under the view, with its
	// Details and Dismiss buttons (messages.go): nothing here appears
	// or goes with it.
}
