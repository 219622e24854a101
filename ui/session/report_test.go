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

func TestUserWords(t *testing.T) {
	for _, tc := range []struct{ chain, want string }{
		{"world: Restore: tilecache: Restore: the snapshot was taken from other geometry or settings",
			"the snapshot was taken from other geometry or settings"},
		{"ui: restore snapshot /tmp/a.snap: world: Restore: tilecache: Restore: snapshot checksum does not match",
			"restore snapshot /tmp/a.snap: snapshot checksum does not match"},
		{"level: load OBJ: bad.obj: line 3: vertex has 2 coordinates", "load OBJ: bad.obj: line 3: vertex has 2 coordinates"},
		{"ui: no tile cache: build the cache first", "no tile cache: build the cache first"},
		{"nothing to undo", "nothing to undo"},
		{"tilecache: Restore", "Restore"}, // the message itself stays
		{"", ""},
	} {
		if got := UserWords(tc.chain); got != tc.want {
			t.Errorf("UserWords(%q) = %q, want %q", tc.chain, got, tc.want)
		}
	}
}

// TestReportKeepsDetail checks that the window shows an error in the
// user's words with its whole chain one click away.
func TestReportKeepsDetail(t *testing.T) {
	a := &App{}
	chain := "world: Restore: tilecache: Restore: fingerprint 0x19e4, this cache's is 0x2a"
	a.Report(errors.New(chain))
	if a.Err() != "fingerprint 0x19e4, this cache's is 0x2a" || a.ErrDetail() != chain || a.ErrDetailShown() {
		t.Fatalf("Err %q, ErrDetail %q, shown %v", a.Err(), a.ErrDetail(), a.ErrDetailShown())
	}
	a.ToggleErrDetail()
	if !a.ErrDetailShown() {
		t.Fatal("Details did not show the chain")
	}
	a.Report(errors.New("ui: another"))
	if a.ErrDetailShown() || a.Err() != "another" {
		t.Fatalf("a new error: shown %v, Err %q", a.ErrDetailShown(), a.Err())
	}
	a.DismissErr()
	if a.ErrDetail() != "" || a.ErrDetailShown() {
		t.Fatalf("dismissed: detail %q", a.ErrDetail())
	}
}
