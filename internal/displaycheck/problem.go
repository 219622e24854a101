package displaycheck

// problem returns why there is no usable X11 display, or "" when there is
// one or the check is off. getenv reads the environment (the bool tells
// whether the variable is set); reachable says whether the X server of a
// local display number accepts connections.
func problem(getenv func(string) (string, bool), reachable func(n string) bool) string {
	if v, _ := getenv("NAVVIZ_NO_DISPLAY_CHECK"); v != "" && v != "0" {
		return ""
	}
	d, _ := getenv("DISPLAY")
	if d == "" {
		if w, _ := getenv("WAYLAND_DISPLAY"); w != "" {
			return "DISPLAY is not set and navviz needs X11 (under Wayland enable XWayland; headless: xvfb-run -a navviz ...)"
		}
		return "DISPLAY is not set; run navviz in a desktop session or under xvfb-run -a navviz ..."
	}
	n, ok := localDisplay(d)
	if ok && !reachable(n) {
		return "no X server answers on DISPLAY=" + d + " (/tmp/.X11-unix/X" + n + "); start one or run under xvfb-run -a navviz ..."
	}
	return ""
}

// localDisplay returns the display number of a local display name,
// ":N", ":N.S" or "unix:N[.S]"; ok is false for a remote or malformed one.
func localDisplay(d string) (n string, ok bool) {
	switch {
	case len(d) > 1 && d[0] == ':':
		d = d[1:]
	case len(d) > 5 && d[:5] == "unix:":
		d = d[5:]
	default:
		return "", false
	}
	i := 0
	for i < len(d) && d[i] >= '0' && d[i] <= '9' {
		i++
	}
	if i == 0 || (i < len(d) && d[i] != '.') {
		return "", false
	}
	return d[:i], true
}
