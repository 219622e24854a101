package ui

// The tests look at the pixels of the frame drawn after an Update: the
// views are built in Update (jobs.go). Tests of the background projection
// switch it off for their Game.
func init() { syncScenes = true }
