package session

import (
	"strings"
	"unicode"
)

// UI errors.
//
// Every error of a user action (a panel button, a key, a tool click), of
// a background job (a build, a cache job, a scene) or of a file dialog is
// shown in the window's message bar through App.report, in red, until a
// later success (reportOK), another error or "Dismiss error" replaces it.
// No error of the window is dropped: a call whose error its caller does
// not handle is written report(f()) (report(errOf(f())) for a value and an
// error); reporting an error the callee reported already shows the same
// text again.

// Report shows err in the window's message bar in the user's words
// (App.Err; its whole chain is App.ErrDetail) and returns it; nil shows
// nothing and returns nil.
func (a *App) Report(err error) error {
	if err != nil {
		a.errDetail = err.Error()
		a.err = UserWords(a.errDetail)
		a.shownErr = a.err
		a.errDetailShown = false
	}
	return err
}

// UserWords rewrites an error chain for the window: the parts that only
// name where in the code it happened (the package and function names that
// wrapping put in front, as in "ui: restore snapshot x.snap: world:
// Restore: tilecache: Restore: ...") are dropped: "restore snapshot
// x.snap: ...". Parts that hold a value, a file name or more than one word
// are kept. The whole chain stays available (App.ErrDetail).
func UserWords(chain string) string {
	parts := strings.Split(chain, ": ")
	kept := parts[:0:0]
	for i, p := range parts {
		// The last part is the message itself, whatever it looks like.
		if i < len(parts)-1 && isCodeName(p) {
			continue
		}
		kept = append(kept, p)
	}
	return strings.Join(kept, ": ")
}

// isCodeName reports whether s is a bare Go identifier, a package or
// function name such as "tilecache" or "Restore" (a file name such as
// "city.obj" is not one).
func isCodeName(s string) bool {
	for i, r := range s {
		if !(r == '_' || unicode.IsLetter(r) || (i > 0 && unicode.IsDigit(r))) {
			return false
		}
	}
	return s != ""
}

// ReportOK sets the status line (unless status is "") and clears the
// error report showed, if it is still shown.
func (a *App) ReportOK(status string) {
	if a.shownErr != "" && a.err == a.shownErr {
		a.err = ""
	}
	a.shownErr = ""
	if status != "" {
		a.status = status
	}
}

// ErrOf returns the error of a (value, error) result, for
// report(ErrOf(f())).
func ErrOf[T any](_ T, err error) error { return err }
