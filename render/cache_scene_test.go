package render

import "testing"

func TestCacheStateOverlayWithoutCache(t *testing.T) {
	for _, name := range CacheOverlayNames {
		o := CacheStateOverlay(name, &CacheState{})
		if o.Name != name || len(o.Tris)+len(o.Lines)+len(o.Points) != 0 {
			t.Errorf("%s without a cache: %q with %d vertices, want an empty overlay of that name", name, o.Name, len(o.Tris)+len(o.Lines)+len(o.Points))
		}
	}
}
