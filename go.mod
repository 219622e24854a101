module navviz

go 1.26

require (
	github.com/cespare/xxhash/v2 v2.3.0
	github.com/chromedp/cdproto v0.160.1
	github.com/chromedp/chromedp v0.23.1
	github.com/ebitengine/debugui v0.2.0
	github.com/hajimehoshi/ebiten/v2 v2.8.8
	github.com/qmuntal/gltf v0.28.0
	github.com/sqweek/dialog v0.0.0-20260123140253-64c163d53aac
	golang.org/x/image v0.29.0
	golang.org/x/sys v0.36.0
	pgregory.net/rapid v1.3.0
)

require github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect

require (
	github.com/TheTitanrain/w32 v0.0.0-20180517000239-4f5cfb03fabf // indirect
	github.com/ebitengine/gomobile v0.0.0-20240911145611-4856209ac325 // indirect
	github.com/ebitengine/hideconsole v1.0.0 // indirect
	github.com/ebitengine/purego v0.8.0 // indirect
	github.com/go-text/typesetting v0.2.0 // indirect
	github.com/hajimehoshi/bitmapfont/v4 v4.1.0
	github.com/jezek/xgb v1.1.1 // indirect
	github.com/pierrec/lz4/v4 v4.1.22 // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	golang.org/x/sync v0.17.0 // indirect
	golang.org/x/text v0.27.0 // indirect
)
