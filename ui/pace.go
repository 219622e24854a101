package ui

import (
	"time"

	"navviz/ui/session"
)

// Pacing the loop.
//
// Ebitengine reads the input state once per frame, before the frame's
// Updates; at a fixed tick rate a frame may run no Update at all (when
// frames come faster than ticks: a still view under llvmpipe draws over
// 100 frames a second), and the state it read is replaced by the next
// frame's. A click shorter than a frame (xdotool's click, a quick tap)
// seen only by such a frame was lost: about one click in five while the
// agents walk on city. So navviz runs one Update per frame
// (ebiten.SyncWithFPS) and paces the frames itself: Update sleeps until
// one tick has passed since the previous one, so ticks come at tickRate
// at most (idle CPU as with a 60 TPS loop) and every frame's input reaches
// an Update.

// pace sleeps until a tick has passed since the last Update (only in the
// window's loop: tests call Update directly).
func (g *Game) pace() {
	if !g.paced {
		return
	}
	const tick = time.Second / session.TickRate
	if d := time.Until(g.lastTick.Add(tick)); d > 0 {
		time.Sleep(d)
	}
	g.lastTick = time.Now()
}
