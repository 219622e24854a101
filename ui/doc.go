// Package ui is navviz's desktop front end: the only package that imports
// Ebitengine, debugui and the native file dialog. It turns input into
// camera moves and tool gestures, draws the render.Scene with the GPU
// (triangles projected on the CPU through the render camera and sorted
// back to front), and shows the docked debugui panels.
//
// The application state (level, scene, camera, builds, the tile cache,
// the last error) is a session.App (package ui/session, which has no
// Ebitengine import and is tested without a display); Game glues it to
// Ebitengine and calls it through its methods. Input decisions
// (viewController) are plain Go too.
package ui
