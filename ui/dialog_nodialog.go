//go:build nodialog

package ui

import "errors"

// hasFileDialog is false in builds tagged nodialog (no GTK): the Level panel
// shows a path text field instead of an "Open…" button.
const hasFileDialog = false

// openFileDialog is never called in nodialog builds; it reports that the
// build has no dialog.
func openFileDialog() (string, error) {
	return "", errors.New("ui: built with the nodialog tag: type a path in the Level tab")
}

// saveFileDialog is never called in nodialog builds (the Cache panel shows
// a path field); it reports that the build has no dialog.
func saveFileDialog(title, startFile, filterDesc string, exts ...string) (string, error) {
	return "", errors.New("ui: built with the nodialog tag: type a path in the Cache tab")
}

// openAnyFileDialog is never called in nodialog builds; it reports that the
// build has no dialog.
func openAnyFileDialog(title, filterDesc string, exts ...string) (string, error) {
	return "", errors.New("ui: built with the nodialog tag: type a path in the Cache tab")
}
