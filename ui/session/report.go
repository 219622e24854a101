package session

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

// Report shows err in the window's message bar (App.Err) and returns it;
// nil shows nothing and returns nil.
func (a *App) Report(err error) error {
	if err != nil {
		a.err = err.Error()
		a.shownErr = a.err
	}
	return err
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
