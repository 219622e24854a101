package level_test

import (
	"bytes"
	"flag"
	"os"
	"reflect"
	"testing"

	"navviz/core/level"
)

var updateExample = flag.Bool("update-example", false, "rewrite ../../testdata/levels/courtyard.glb from exampleLevel")

// exampleFile is the example glTF level the project ships.
const exampleFile = "../../testdata/levels/courtyard.glb"

// TestExampleGLBFile checks that testdata/levels/courtyard.glb is what
// exampleLevel makes (regenerate it with -update-example) and that Load
// reads it as the level exampleLevel describes.
func TestExampleGLBFile(t *testing.T) {
	b, want := exampleLevel()
	data := b.glb(t)
	if *updateExample {
		if err := os.WriteFile(exampleFile, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(exampleFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) {
		t.Fatalf("%s differs from exampleLevel's GLB (%d bytes, want %d): run go test ./core/level -run ExampleGLBFile -update-example", exampleFile, len(got), len(data))
	}
	s, err := level.Load(exampleFile)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("Load(%s) is not the example level", exampleFile)
	}
}
