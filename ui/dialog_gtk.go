//go:build !nodialog

package ui

import (
	"errors"
	"fmt"

	"github.com/sqweek/dialog"
)

// hasFileDialog is true when the build has a native file dialog (GTK through
// sqweek/dialog); the Level panel then shows an "Open…" button.
const hasFileDialog = true

// openFileDialog shows the native open dialog filtered to level files
// (Wavefront OBJ, glTF) and returns the chosen path. It blocks until the user answers, so
// the caller runs it off the game loop. A cancelled dialog returns
// errDialogCancelled. A GTK failure (for example no X server) is returned as
// an error, never as a panic.
func openFileDialog() (string, error) {
	return runFileDialog(func() (string, error) {
		return dialog.File().
			Title("Open level").
			Filter("Levels (*.obj, *.gltf, *.glb)", "obj", "OBJ", "gltf", "glb", "GLB").
			Load()
	})
}

// saveFileDialog shows the native save dialog titled title, filtered to
// files ending in one of exts (described as filterDesc) with "All files"
// as a second choice, and returns the chosen path (GTK asks before
// overwriting). It blocks, so the caller runs it off the game loop. A
// cancelled dialog returns errDialogCancelled; a GTK failure is an error,
// never a panic.
func saveFileDialog(title, startFile, filterDesc string, exts ...string) (string, error) {
	return runFileDialog(func() (string, error) {
		b := anyFileDialog(title, filterDesc, exts)
		if startFile != "" {
			b = b.SetStartFile(startFile)
		}
		return b.Save()
	})
}

// openAnyFileDialog shows the native open dialog titled title for any file
// type: files ending in one of exts (described as filterDesc) first, "All
// files" as a second choice. It blocks and fails as saveFileDialog does.
func openAnyFileDialog(title, filterDesc string, exts ...string) (string, error) {
	return runFileDialog(func() (string, error) {
		return anyFileDialog(title, filterDesc, exts).Load()
	})
}

// anyFileDialog returns a file dialog titled title whose filters are files
// ending in one of exts (described as filterDesc; left out when exts is
// empty), then "All files".
func anyFileDialog(title, filterDesc string, exts []string) *dialog.FileBuilder {
	b := dialog.File().Title(title)
	if len(exts) > 0 {
		b = b.Filter(filterDesc, exts...)
	}
	return b.Filter("All files", "*")
}

// runFileDialog runs show, which shows a dialog and blocks until the user
// answers, and returns the chosen path: errDialogCancelled when the user
// cancelled, any other failure as an error, also a panic in GTK.
func runFileDialog(show func() (string, error)) (path string, err error) {
	defer func() {
		if r := recover(); r != nil {
			path, err = "", fmt.Errorf("ui: file dialog failed: %v", r)
		}
	}()
	path, err = show()
	if errors.Is(err, dialog.ErrCancelled) {
		return "", errDialogCancelled
	}
	if err != nil {
		return "", fmt.Errorf("ui: file dialog: %w", err)
	}
	return path, nil
}
