package scenario

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// requireChromiumEnv, when set (make test sets it), turns a missing
// chromium from a skip into a failure, so CI cannot pass without opening
// the report in a browser.
const requireChromiumEnv = "NAVVIZ_REQUIRE_CHROMIUM"

// chromiumPath returns Debian's chromium (make deps installs it), or
// skips the test (fails it under NAVVIZ_REQUIRE_CHROMIUM=1).
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "chromium is not installed (make deps installs it: apt-get install chromium)"
	if os.Getenv(requireChromiumEnv) == "1" {
		t.Fatalf("%s; %s=1 requires it", msg, requireChromiumEnv)
	}
	t.Skip(msg)
	return ""
}

// browserProblems collects what the page reported: console errors and
// warnings, uncaught exceptions, log entries of level error (a picture
// that did not load).
type browserProblems struct {
	mu   sync.Mutex
	list []string
}

func (b *browserProblems) add(format string, args ...any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.list = append(b.list, fmt.Sprintf(format, args...))
}

func (b *browserProblems) all() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.list...)
}

// TestReportInBrowser opens the index.html of a failing compare in
// headless Chromium: the failing shot's three pictures are decoded and
// shown at a visible size, the swipe control changes what is shown, blink
// turns, and the page logs no error and throws no exception.
func TestReportInBrowser(t *testing.T) {
	chromium := chromiumPath(t)
	_, _, out := failingRun(t)
	abs, err := filepath.Abs(filepath.Join(out, IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	pageURL := (&url.URL{Scheme: "file", Path: abs}).String()

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1400, 1000),
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(allocCtx)
	defer cancelBrowser()

	var problems browserProblems
	var wg sync.WaitGroup
	listen := func(f func()) { wg.Add(1); go func() { defer wg.Done(); f() }() }
	console := chromedp.Events(bctx, runtime.ConsoleAPICalled)
	exceptions := chromedp.Events(bctx, runtime.ExceptionThrown)
	logs := chromedp.Events(bctx, log.EntryAdded)
	listen(func() {
		for ev, err := range console {
			if err != nil {
				return
			}
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning || ev.Type == runtime.ConsoleAPICalledTypeAssert {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value))
				}
				problems.add("console.%s: %s", ev.Type, strings.Join(args, " "))
			}
		}
	})
	listen(func() {
		for ev, err := range exceptions {
			if err != nil {
				return
			}
			problems.add("%v", &chromedp.ExceptionError{ExceptionDetails: ev.ExceptionDetails})
		}
	})
	listen(func() {
		for ev, err := range logs {
			if err != nil {
				return
			}
			if ev.Entry.Level == log.EntryLevelError || ev.Entry.Level == log.EntryLevelWarning {
				problems.add("log %s (%s): %s %s", ev.Entry.Level, ev.Entry.Source, ev.Entry.Text, ev.Entry.URL)
			}
		}
	})
	defer wg.Wait()
	defer cancelBrowser()

	if err := chromedp.Do(bctx, chromedp.Navigate(pageURL), chromedp.WaitReady(chromedp.CSS("#shot-carved"))); err != nil {
		t.Fatalf("open %s: %v", pageURL, err)
	}
	// The failing shot is named and its three pictures are decoded and
	// laid out at a visible size.
	type picture struct {
		Class                       string
		Complete                    bool
		NaturalWidth, NaturalHeight int
		Width, Height               float64
	}
	pics, err := chromedp.Run(bctx, chromedp.Evaluate[[]picture](`Array.from(document.querySelectorAll("#shot-carved .pane img")).map(function (img) {
		var r = img.getBoundingClientRect();
		return {Class: img.className, Complete: img.complete, NaturalWidth: img.naturalWidth, NaturalHeight: img.naturalHeight, Width: r.width, Height: r.height};
	})`))
	if err != nil {
		t.Fatal(err)
	}
	var classes []string
	for _, p := range pics {
		classes = append(classes, p.Class)
		if !p.Complete || p.NaturalWidth != 160 || p.NaturalHeight != 100 || p.Width < 50 || p.Height < 30 {
			t.Errorf("the %s picture: %+v, want decoded at 160x100 and shown", p.Class, p)
		}
	}
	if strings.Join(classes, " ") != "golden new diff" {
		t.Errorf("the failing shot shows %v, want golden new diff", classes)
	}
	heading, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector("#shot-carved h3").textContent`))
	if err != nil || !strings.Contains(heading, "FAIL") || !strings.Contains(heading, "carved") {
		t.Errorf("the failing shot's heading %q (%v), want FAIL carved", heading, err)
	}

	// Swipe: the stack shows the golden at 0 and the new picture at 100,
	// which differ in the changed block.
	if err := chromedp.Do(bctx, chromedp.Click(chromedp.CSS(`#shot-carved input[value="swipe"]`))); err != nil {
		t.Fatal(err)
	}
	swipeTo := func(v int) []byte {
		t.Helper()
		js := fmt.Sprintf(`(function () { var s = document.querySelector("#shot-carved input.swipe"); s.value = %d; s.dispatchEvent(new Event("input")); return document.querySelector("#shot-carved img.over").style.clipPath; })()`, v)
		clip, err := chromedp.Run(bctx, chromedp.Evaluate[string](js))
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("inset(0px %d%% 0px 0px)", 100-v); clip != want && clip != strings.ReplaceAll(want, "0px", "0") {
			t.Errorf("swipe %d: the new picture's clip is %q, want %q", v, clip, want)
		}
		shot, err := chromedp.Run(bctx, chromedp.Screenshot(chromedp.CSS(`#shot-carved .stack`)))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(shot))
		if err != nil || img.Bounds().Dx() < 50 {
			t.Fatalf("swipe %d: the stack's screenshot: %v, %v", v, img.Bounds(), err)
		}
		return shot
	}
	atGolden, atNew := swipeTo(0), swipeTo(100)
	if bytes.Equal(atGolden, atNew) {
		t.Error("the swipe control does not change what is shown: the stack looks the same at 0 and 100")
	}
	if again := swipeTo(0); !bytes.Equal(again, atGolden) {
		t.Error("swiping back to 0 does not show the golden again")
	}

	// Blink: the label turns between new and golden.
	if err := chromedp.Do(bctx, chromedp.Click(chromedp.CSS(`#shot-carved input[value="blink"]`))); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i := 0; i < 30 && len(seen) < 2; i++ {
		l, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector("#shot-carved .blink-label").textContent`))
		if err != nil {
			t.Fatal(err)
		}
		seen[l] = true
		time.Sleep(100 * time.Millisecond)
	}
	if !seen["showing: golden"] || !seen["showing: new"] {
		t.Errorf("blink showed %v, want both the golden and the new picture", seen)
	}

	// Zoom 4x: the pictures grow to 4 screen pixels a pixel.
	if err := chromedp.Do(bctx, chromedp.SetValue(chromedp.CSS(`#zoom`), "4"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("zoom").dispatchEvent(new Event("change"))`),
		chromedp.Click(chromedp.CSS(`#shot-carved input[value="side"]`))); err != nil {
		t.Fatal(err)
	}
	w, err := chromedp.Run(bctx, chromedp.Evaluate[float64](`document.querySelector("#shot-carved .pane.diff img").getBoundingClientRect().width`))
	if err != nil || w != 640 {
		t.Errorf("zoom 4x: the difference picture is %v px wide (%v), want 640", w, err)
	}
	// Let late events (a picture failing to load) arrive.
	time.Sleep(200 * time.Millisecond)
	for _, p := range problems.all() {
		t.Errorf("the page reported: %s", p)
	}
}
