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

// openFileDialog shows the native open dialog filtered to Wavefront OBJ
// files and returns the chosen path. It blocks until the user answers, so
// the caller runs it off the game loop. A cancelled dialog returns
// errDialogCancelled. A GTK failure (for example no X server) is returned as
// an error, never as a panic.
func openFileDialog() (path string, err error) {
	defer func() {
		if r := recover(); r != nil {
			path, err = "", fmt.Errorf("ui: file dialog failed: %v", r)
		}
	}()
	path, err = dialog.File().
		Title("Open level").
		Filter("Wavefront OBJ (*.obj)", "obj", "OBJ").
		Load()
	if errors.Is(err, dialog.ErrCancelled) {
		return "", errDialogCancelled
	}
	if err != nil {
		return "", fmt.Errorf("ui: file dialog: %w", err)
	}
	return path, nil
}
