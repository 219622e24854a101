package ui

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/hajimehoshi/ebiten/v2"
)

// Opening a level: the file dialog, files dropped on the window and the
// load the Level panel asks for, all done in Update.

// errDialogCancelled is returned by openFileDialog when the user cancels.
var errDialogCancelled = errors.New("ui: dialog cancelled")

// dialogResult is the answer of a file dialog run off the game loop.
type dialogResult struct {
	path string
	err  error
}

// takeOpenedLevel takes the answer of the file dialog and the file
// dropped on the window, if any, as the level to load next; their errors
// are reported.
func (g *Game) takeOpenedLevel() {
	select {
	case r := <-g.dialogDone:
		g.dialogBusy = false
		switch {
		case errors.Is(r.err, errDialogCancelled):
		case r.err != nil:
			g.App.Report(r.err)
		default:
			g.pending = r.path
		}
	default:
	}
	if p, err := droppedLevel(ebiten.DroppedFiles()); err != nil {
		g.App.Report(err)
	} else if p != "" {
		g.pending = p
	}
}

// loadPending loads the level asked for (RequestLoad), if any.
func (g *Game) loadPending() {
	if g.pending == "" {
		return
	}
	p := g.pending
	g.pending = ""
	if g.App.Load(p) == nil { // Load reports its error
		// A build of the previous level is of no use.
		g.runner.Cancel()
		g.buildRequested = false
	}
}

// droppedLevel returns the path of the first file dropped on the window in
// this frame, or "" when nothing was dropped. Directories are refused.
func droppedLevel(fsys fs.FS) (string, error) {
	if fsys == nil {
		return "", nil
	}
	ents, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return "", fmt.Errorf("ui: dropped files: %w", err)
	}
	if len(ents) == 0 {
		return "", nil
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	e := ents[0]
	if e.IsDir() {
		return "", fmt.Errorf("ui: dropped %s is a folder: drop an .obj, .gltf or .glb level or a Detour navmesh or tile-cache file", e.Name())
	}
	f, err := fsys.Open(e.Name())
	if err != nil {
		return "", fmt.Errorf("ui: dropped file %s: %w", e.Name(), err)
	}
	defer f.Close()
	// On desktops the dropped files are real files: use their real path so
	// errors name it.
	if of, ok := f.(*os.File); ok {
		if abs, err := filepath.Abs(of.Name()); err == nil {
			return abs, nil
		}
		return of.Name(), nil
	}
	return "", fmt.Errorf("ui: dropped file %s is not on the local file system", e.Name())
}

// startOpenDialog shows the native file dialog off the game loop; its answer
// arrives in a later Update.
func (g *Game) startOpenDialog() {
	if g.dialogBusy {
		return
	}
	g.dialogBusy = true
	go func() {
		p, err := openFileDialog()
		g.dialogDone <- dialogResult{path: p, err: err}
	}()
}

// dialogLabel is the label of a button that opens a file dialog, or
// "(dialog open)" while one is open.
func (g *Game) dialogLabel(label string) string {
	if g.dialogBusy {
		return "(dialog open)"
	}
	return label
}

// RequestLoad asks the game to load a level (built-in name, OBJ or glTF path, or
// a Detour navmesh or tile-cache file) in
// the next Update, as the Level panel, a drop or the dialog do.
func (g *Game) RequestLoad(nameOrPath string) { g.pending = nameOrPath }
