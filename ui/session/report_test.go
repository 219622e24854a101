package session

import (
	"errors"
	"testing"
)

// TestReport: report shows an error and returns it, nil shows nothing;
// reportOK clears a reported error still shown and sets the status.
func TestReport(t *testing.T) {
	boom := errors.New("boom")
	for _, tc := range []struct {
		name             string
		do               func(a *App) error
		wantRet          error
		wantErr, wantSta string
	}{
		{"nil", func(a *App) error { return a.Report(nil) }, nil, "", "idle"},
		{"error", func(a *App) error { return a.Report(boom) }, boom, "boom", "idle"},
		{"error then ok", func(a *App) error { a.Report(boom); a.ReportOK("done"); return nil }, nil, "", "done"},
		{"ok without status", func(a *App) error { a.Report(boom); a.ReportOK(""); return nil }, nil, "", "idle"},
		{"error after ok", func(a *App) error { a.ReportOK("done"); return a.Report(boom) }, boom, "boom", "done"},
		{"dismissed then ok", func(a *App) error {
			a.Report(boom)
			a.err = ""        // Dismiss error
			a.err = "another" // not reported: reportOK leaves it
			a.ReportOK("done")
			return nil
		}, nil, "another", "done"},
	} {
		a := NewApp()
		a.status = "idle"
		if got := tc.do(a); got != tc.wantRet {
			t.Errorf("%s: returned %v, want %v", tc.name, got, tc.wantRet)
		}
		if a.err != tc.wantErr || a.status != tc.wantSta {
			t.Errorf("%s: Err %q status %q, want %q, %q", tc.name, a.err, a.status, tc.wantErr, tc.wantSta)
		}
	}
}
